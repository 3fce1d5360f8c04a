#pragma once
/// CacheMode's three values and their one spelling (docs/reference/timing.md, "The page cache").

#include <cctype>
#include <optional>
#include <string>
#include <vector>

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
  std::string w;
  for (char c : word)
    w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto m : {CacheMode::Keep, CacheMode::Drop, CacheMode::Direct})
    if (w == to_string(m))
      return m;
  return std::nullopt;
}

} // namespace pio
