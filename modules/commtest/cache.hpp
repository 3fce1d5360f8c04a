#pragma once
/// The "cache invalidated" way of the COMMTEST description ("Before timing begins, the L2 cache
/// is invalidated"): the last-level cache size, from sysfs or a directive, and a sweep over a
/// buffer larger than it.

#include <cstdint>
#include <string>
#include <vector>

namespace commtest {

/// A cache size and where it came from.
struct CacheSize {
  std::int64_t bytes = 0; ///< size of the largest (last-level) data or unified cache
  std::string source;     ///< the sysfs directory it was read from, or "CacheSize directive"
};

/// The last-level cache size from `<cpu_dir>/cache/index*/{level,type,size}` (Linux sysfs,
/// cpu_dir e.g. /sys/devices/system/cpu/cpu0), or `fallback` (the CacheSize directive) when
/// detection is off or sysfs says nothing.
CacheSize last_level_cache(const std::string &cpu_dir, bool detect, std::int64_t fallback);

/// Parses a sysfs cache size ("32768K", "1024K", "8M", "512"); 0 when it cannot.
std::int64_t parse_cache_size(const std::string &text);

/// A buffer of `bytes` that sweep() writes and reads end to end, evicting whatever was cached.
class CacheSweep {
public:
  /// bytes: how much to sweep (twice the last-level cache in COMMTEST).
  explicit CacheSweep(std::int64_t bytes);
  /// Writes every byte with a new value and reads one byte per cache line back; returns the
  /// sum of the bytes read (so the reads are not optimised away).
  std::uint64_t sweep();
  /// Bytes swept.
  std::int64_t bytes() const { return static_cast<std::int64_t>(buffer_.size()); }
  /// The buffer (tests check every byte holds the last sweep's value).
  const std::vector<std::uint8_t> &buffer() const { return buffer_; }
  /// The value the last sweep wrote.
  std::uint8_t value() const { return value_; }

private:
  std::vector<std::uint8_t> buffer_;
  std::uint8_t value_ = 0;
};

} // namespace commtest
