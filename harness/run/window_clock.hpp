#pragma once
/// The clock of a phase's unit boundaries, in every timing scope (docs/reference/timing.md, "The
/// clock"): the CPU's time-stamp counter where the kernel keeps it as its clock source, as fio's
/// CPU clock, else CLOCK_MONOTONIC. Two readings per unit cost 2 x 8 ns this way against
/// 2 x 22 ns of MPI_Wtime (x86-64 VM, kernel 6.18). The readings are placed on MPI_Wtime's scale
/// by two MPI_Wtime readings, one at the phase's (or window's) start and one at its end.

#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace pio::harness {

/// A window's clock: ticks since the window's start, converted to seconds after close().
class WindowClock {
public:
  /// Starts the window: an MPI_Wtime reading and the tick count at its middle (anchor()).
  WindowClock();
  /// True when the ticks are the time-stamp counter: x86-64, and the kernel's clock source is
  /// "tsc" (which it keeps only while the counter is constant and in step on every CPU).
  /// Decided once per process.
  static bool is_tsc() noexcept { return tsc_; }
  /// Ticks since the window's start (inline: the unit loop reads it twice per unit).
  double now() const { return static_cast<double>(raw() - start_ticks_); }
  /// Seconds per tick from the window's start to now (an MPI_Wtime reading): for progress lines.
  double seconds_per_tick_so_far() const;
  /// Ends the window: a second pair of readings fixes seconds_per_tick().
  void close();
  /// Seconds per tick over the window, after close(): (Wtime at close - at start) /
  /// (ticks at close - at start); 0 for a window without ticks.
  double seconds_per_tick() const { return seconds_per_tick_; }

private:
  /// An MPI_Wtime reading and the tick count at its middle: the best of three tries of ticks,
  /// MPI_Wtime, ticks (the one that took fewest ticks), so that a rank descheduled between two
  /// readings does not skew the window's scale.
  struct Anchor {
    double wtime = 0;
    std::uint64_t ticks = 0;
  };
  static Anchor anchor();
  static std::uint64_t raw() {
#if defined(__x86_64__)
    if (tsc_)
      return __rdtsc();
#endif
    return monotonic_ns();
  }
  static std::uint64_t monotonic_ns() noexcept;
  static const bool tsc_;

  double start_wtime_ = 0;
  std::uint64_t start_ticks_ = 0;
  double seconds_per_tick_ = 0;
};

} // namespace pio::harness
