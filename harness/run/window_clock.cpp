// The clock of a phase's unit boundaries (window_clock.hpp).
#include "run/window_clock.hpp"

#include <mpi.h>
#include <time.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace pio::harness {

namespace {

bool kernel_keeps_tsc() noexcept {
#if defined(__x86_64__)
  try {
    std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    std::string source;
    return in >> source && source == "tsc";
  } catch (...) {
    return false;
  }
#else
  return false;
#endif
}

/// Seconds per tick: `seconds` of MPI_Wtime over `ticks`, 0 when either is none.
double rate(double seconds, double ticks) { return ticks > 0 && seconds > 0 ? seconds / ticks : 0; }

} // namespace

const bool WindowClock::tsc_ = kernel_keeps_tsc();

std::uint64_t WindowClock::monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

WindowClock::Anchor WindowClock::anchor() {
  Anchor best;
  std::uint64_t best_span = UINT64_MAX;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t before = raw();
    const double w = MPI_Wtime();
    const std::uint64_t after = raw();
    if (after - before < best_span) {
      best_span = after - before;
      best = {w, before + (after - before) / 2};
    }
  }
  return best;
}

WindowClock::WindowClock() {
  const Anchor a = anchor();
  start_wtime_ = a.wtime;
  start_ticks_ = a.ticks;
}

double WindowClock::seconds_per_tick_so_far() const {
  const Anchor a = anchor();
  return rate(a.wtime - start_wtime_, static_cast<double>(a.ticks - start_ticks_));
}

void WindowClock::close() { seconds_per_tick_ = seconds_per_tick_so_far(); }

} // namespace pio::harness
