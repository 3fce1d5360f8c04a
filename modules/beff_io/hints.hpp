#pragma once
/// b_eff_io's hint directives, MPI-free: TypeHints (given at open, per pattern type) and
/// ChunkHints (MPI_File_set_info before the patterns of one chunk size, the "future work" item
/// of the b_eff_io paper §5.3).

#include <map>
#include <string>
#include <vector>

#include "beff_math.hpp"

namespace pio::beff_io {

/// key -> value.
using Hints = std::map<std::string, std::string>;

/// Parses TypeHints words "TYPE:key=value" (TYPE 0-4 or *): pattern type -> hints at open.
/// Throws pio::Error naming a malformed word.
std::map<int, Hints> parse_type_hints(const std::vector<std::string> &words);

/// One ChunkHints word "TYPE:CHUNK:key=value" (TYPE 0-4 or *, CHUNK a Table 2 chunk label or *).
struct ChunkHint {
  std::string type;  ///< "0".."4" or "*"
  std::string chunk; ///< "1K", "32K+8", "MPART", "fill", ... or "*"
  std::string key, value;
};
/// Parses ChunkHints words; throws pio::Error naming a malformed word.
std::vector<ChunkHint> parse_chunk_hints(const std::vector<std::string> &words);
/// The hints of each chunk label of `patterns` (one pattern type): chunk -> hints.
std::map<std::string, Hints> chunk_hints_for(int type, const std::vector<Pattern> &patterns,
                                             const std::vector<ChunkHint> &hints);
/// "CHUNK:key=value ..." for the results' params.
std::string describe_chunk_hints(const std::map<std::string, Hints> &by_chunk);

} // namespace pio::beff_io
