#include "guard/watchdog.hpp"

#include "guard/guard_state.hpp"
#include "guard/position.hpp"
#include "guard/process_guard.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pio::harness {

Watchdog::Watchdog(double timeout_s, int rank)
    : timeout_s_(timeout_s < 0 ? kDefaultStepTimeout : timeout_s), adaptive_(timeout_s < 0),
      rank_(rank) {
  set_position_rank(rank);
  if (timeout_s_ > 0)
    thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void Watchdog::watch() {
  using clock = std::chrono::steady_clock;
  unsigned long long seen = heartbeats();
  auto last_change = clock::now();
  double slowest = 0; // the longest step seen so far, seconds
  const auto tick = std::chrono::milliseconds(200);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_cv_.wait_for(lock, tick, [this] { return stop_; })) {
    const unsigned long long now_beats = heartbeats();
    const double quiet = std::chrono::duration<double>(clock::now() - last_change).count();
    if (now_beats != seen) {
      seen = now_beats;
      slowest = std::max(slowest, quiet);
      last_change = clock::now();
      continue;
    }
    const double limit = adaptive_ ? std::max(timeout_s_, kAdaptiveFactor * slowest) : timeout_s_;
    const bool waiting = waiting_for_others();
    // A rank waiting for the others gets more time: the rank really stuck speaks first.
    if (quiet < (waiting ? limit * 1.5 + 2 : limit))
      continue;
    // No MPI here: this thread may not call MPI. Exiting makes mpiexec end the other ranks.
    guard_state().stop_reason.store(kStopWatchdog);
    char what[160];
    if (waiting) {
      std::snprintf(what, sizeof what, "waited %.0f s for the other ranks (StepTimeout)", quiet);
      remove_and_say(what, " after ",
                     "; exiting so that no rank waits forever (fix: another rank is stuck or "
                     "died; see its message)");
    } else {
      std::snprintf(what, sizeof what, "made no progress for %.0f s (StepTimeout%s)", limit,
                    adaptive_ ? ", automatic" : "");
      remove_and_say(what, " in ",
                     "; exiting so that no rank waits forever (fix: a rank is stuck in a "
                     "collective call another rank did not make, or the step needs more time: "
                     "raise StepTimeout)");
    }
    std::_Exit(3);
  }
}

} // namespace pio::harness
