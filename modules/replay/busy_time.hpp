#pragma once
// The time a traced run spent in I/O: the length of the union of its operations' intervals over
// all its processes (the definition of the harness's TimingScope phase aggregate time, so the
// recorded bandwidth and the replay's compare alike). Kept as a bitmap of clock ticks, 1 µs at
// first; when the run outlasts the bitmap's bound the ticks double (a pair of bits becomes one),
// so a trace of any length takes bounded memory and the union is exact to one tick per interval.

#include <cstdint>
#include <vector>

namespace pio::replay {

/// Union of intervals on a bounded bitmap.
class BusyTime {
public:
  /// At most `max_bits` ticks are kept (2 MiB of bitmap by default: 1 µs ticks up to 16 s of
  /// trace, 256 µs for an hour).
  explicit BusyTime(std::int64_t max_bits = std::int64_t(1) << 24) : max_bits_(max_bits) {}
  /// Adds [start, end) in seconds on the trace's clock (start >= 0; an empty interval adds
  /// nothing).
  void add(double start, double end);
  /// Seconds covered by at least one interval.
  double seconds() const;
  /// The tick in seconds (the union's resolution).
  double tick() const { return tick_; }

private:
  void coarsen();
  std::int64_t max_bits_;
  double tick_ = 1e-6;
  std::vector<std::uint64_t> words_;
};

} // namespace pio::replay
