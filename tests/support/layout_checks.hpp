#pragma once
/// The pattern engine's LayoutTrace read back (the Geometry's extents per rank and unit as the
/// engine ran them) and the file image it implies: the checker the layout tests share, whatever
/// interface wrote the file.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "pattern_checks.hpp"

namespace pio::test {

/// (offset, length) pairs of one rank's unit.
using Extents = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// One traced test: its test line, its extents and whose stamps they hold per (rank, unit).
struct Traced {
  nlohmann::json test;
  std::map<std::pair<int, std::int64_t>, Extents> extents; ///< (rank, unit) -> extents
  std::map<std::pair<int, std::int64_t>, int> owner;       ///< (rank, unit) -> stamping rank
};

/// Parses a trace; sets *problem when it is malformed.
std::vector<Traced> read_trace(const std::string &path, std::string *problem);

/// "[o,l][o,l]..." for messages.
std::string text(const Extents &e);

/// The image of the file the traced test wrote: every traced byte holds its owner's stamp,
/// every other byte is zero, the file ends where the last extent ends. file_rank >= 0: the file
/// of that rank alone (a file per process), else the one shared file.
Image traced_image(const Traced &t, int file_rank = -1);

} // namespace pio::test
