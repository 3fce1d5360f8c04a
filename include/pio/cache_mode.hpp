#pragma once
/// CacheMode's three values and their one spelling (docs/reference/timing.md, "The page cache").

#include <optional>
#include <string>
#include <vector>

#include "pio/enum_words.hpp"

namespace pio {

/// What the harness does about the page cache before a test's read phases.
enum class CacheMode {
  Keep,   ///< nothing: the reads meet whatever the writes left (IOR's default); measured
  Drop,   ///< flush and evict the files' ranges first (fsync + posix_fadvise DONTNEED), untimed
  Direct, ///< O_DIRECT, where the interface and file system have it
};

/// The one spelling of a CacheMode: the directive's word, the results' text.
inline const char *to_string(CacheMode m) {
  switch (m) {
  case CacheMode::Keep:
    return "keep";
  case CacheMode::Drop:
    return "drop";
  case CacheMode::Direct:
    return "direct";
  }
  return "?";
}

/// CacheMode's words in order: keep, drop, direct.
inline std::vector<std::string> cache_mode_words() {
  return {to_string(CacheMode::Keep), to_string(CacheMode::Drop), to_string(CacheMode::Direct)};
}

/// The mode a word names (any case), if it names one.
inline std::optional<CacheMode> cache_mode(const std::string &word) {
  return enum_named(word, {CacheMode::Keep, CacheMode::Drop, CacheMode::Direct});
}

} // namespace pio
