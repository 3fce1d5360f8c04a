#pragma once
/// IO500's find phase (io500 2020+: pfind): walk the tree and count the files whose name
/// matches a glob and whose size matches, reporting entries scanned per second.

#include <cstdint>
#include <string>

namespace pio::metadata {

/// What one rank's walk found.
struct FindCount {
  std::int64_t scanned = 0; ///< entries this rank examined (by name; lstat if the name matches)
  std::int64_t matched = 0; ///< files among them matching the rule
};

/// The rule: a regular file, fnmatch(name_glob, name) and (size < 0 or st_size == size).
struct FindRule {
  std::string name_glob = "*";
  std::int64_t size = -1;
};

/// Walks `top` (never following links), examining the entries whose position in the walk
/// (directories read in name order) is `share` mod `shares`; every rank descends every
/// directory, so `shares` ranks together examine each entry once. Throws pio::Error if a
/// directory cannot be read.
FindCount find_walk(const std::string &top, const FindRule &rule, int share, int shares);

} // namespace pio::metadata
