#include "watchdog.hpp"

#include "process_guard.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pio::harness {

namespace {
std::atomic<unsigned long long> g_beats{0};
std::atomic<const char *> g_step{"start"};
std::atomic<bool> g_waiting{false};
std::atomic<int> g_rank{-1};
char g_where[256] = "the harness"; // written by the main thread, read by the watchdog and handlers

/// Appends s to buf at *pos (async-signal-safe).
void append(char *buf, std::size_t size, std::size_t *pos, const char *s) {
  while (*s && *pos + 1 < size)
    buf[(*pos)++] = *s++;
  buf[*pos] = '\0';
}
} // namespace

void heartbeat(const char *step) noexcept {
  g_step.store(step, std::memory_order_relaxed);
  g_waiting.store(false, std::memory_order_relaxed);
  g_beats.fetch_add(1, std::memory_order_relaxed);
}

void heartbeat_wait() noexcept {
  g_waiting.store(true, std::memory_order_relaxed);
  g_beats.fetch_add(1, std::memory_order_relaxed);
}

void heartbeat_context(const std::string &where) {
  const std::size_t n = std::min(where.size(), sizeof g_where - 1);
  std::memcpy(g_where, where.data(), n);
  g_where[n] = '\0';
  g_beats.fetch_add(1, std::memory_order_relaxed);
}

void set_watchdog_rank(int rank) noexcept { g_rank.store(rank); }

int watchdog_rank() noexcept { return g_rank.load(); }

void describe_position(char *buf, std::size_t size) noexcept {
  std::size_t pos = 0;
  buf[0] = '\0';
  append(buf, size, &pos, g_where);
  append(buf, size, &pos, ", step ");
  append(buf, size, &pos, g_step.load(std::memory_order_relaxed));
  if (g_waiting.load(std::memory_order_relaxed))
    append(buf, size, &pos, " (done, waiting for the other ranks)");
}

Watchdog::Watchdog(double timeout_s, int rank)
    : timeout_s_(timeout_s < 0 ? kDefaultStepTimeout : timeout_s), adaptive_(timeout_s < 0),
      rank_(rank) {
  set_watchdog_rank(rank);
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
  unsigned long long seen = g_beats.load(std::memory_order_relaxed);
  auto last_change = clock::now();
  double slowest = 0; // the longest step seen so far, seconds
  const auto tick = std::chrono::milliseconds(200);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_cv_.wait_for(lock, tick, [this] { return stop_; })) {
    const unsigned long long now_beats = g_beats.load(std::memory_order_relaxed);
    const double quiet = std::chrono::duration<double>(clock::now() - last_change).count();
    if (now_beats != seen) {
      seen = now_beats;
      slowest = std::max(slowest, quiet);
      last_change = clock::now();
      continue;
    }
    const double limit = adaptive_ ? std::max(timeout_s_, kAdaptiveFactor * slowest) : timeout_s_;
    const bool waiting = g_waiting.load(std::memory_order_relaxed);
    // A rank waiting for the others gets more time: the rank really stuck speaks first.
    if (quiet < (waiting ? limit * 1.5 + 2 : limit))
      continue;
    char where[512];
    describe_position(where, sizeof where);
    // No MPI here: this thread may not call MPI. Exiting makes mpiexec end the other ranks.
    if (waiting)
      std::fprintf(stderr,
                   "pio-harness: error: rank %d waited %.0f s for the other ranks (StepTimeout) "
                   "after %s; exiting so that no rank waits forever (fix: another rank is stuck "
                   "or died; see its message)\n",
                   rank_, quiet, where);
    else
      std::fprintf(stderr,
                   "pio-harness: error: rank %d made no progress for %.0f s (StepTimeout%s) in "
                   "%s; exiting so that no rank waits forever (fix: a rank is stuck in a "
                   "collective call another rank did not make, or the step needs more time: "
                   "raise StepTimeout)\n",
                   rank_, limit, adaptive_ ? ", automatic" : "", where);
    std::fflush(stderr);
    remove_tracked();
    std::_Exit(3);
  }
}

} // namespace pio::harness
