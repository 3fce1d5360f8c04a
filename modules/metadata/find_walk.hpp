#pragma once
/// IO500's find phase (io500 2020+: pfind): walk the tree and count the files whose name
/// matches a glob and whose size matches, reporting entries scanned per second. The local part:
/// reading one directory and walking a whole tree on one rank (find_shared.hpp splits the
/// directories among ranks).

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "pio/io/backend.hpp"

namespace pio::metadata {

/// What one rank's walk found.
struct FindCount {
  std::int64_t scanned = 0; ///< entries this rank examined (by name; lstat if the name matches)
  std::int64_t matched = 0; ///< files among them matching the rule

  FindCount &operator+=(const FindCount &o) {
    scanned += o.scanned;
    matched += o.matched;
    return *this;
  }
};

/// The rule: a regular file, fnmatch(name_glob, name) and (size < 0 or st_size == size).
struct FindRule {
  std::string name_glob = "*";
  std::int64_t size = -1;
  /// The walk counts each entry here (ModuleContext::progress: StepTimeout sees a long walk
  /// alive); null: not counted.
  std::atomic<std::uint64_t> *progress = nullptr;
};

/// Reads directory `dir` once (opendir, readdir to the end, in the order the file system gives;
/// no sort) and examines every entry as pfind does: the name first, from the directory entry,
/// and lstat only for a file whose name matches (for its size, or its type where the file
/// system leaves d_type unknown). Appends the paths of its subdirectories (never following
/// links) to `subdirs`. Throws pio::Error if the directory cannot be read.
/// Through b's readdir and stat.
FindCount find_in_dir(io::Backend &b, const std::string &dir, const FindRule &rule,
                      std::vector<std::string> &subdirs);

/// Walks all of `top` on this rank alone (FindRanks one), level by level with find_in_dir:
/// every directory read once.
FindCount find_walk(io::Backend &b, const std::string &top, const FindRule &rule);

} // namespace pio::metadata
