#include "watchdog.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace pio::harness {

namespace {
std::atomic<unsigned long long> g_beats{0};
std::atomic<const char *> g_step{"start"};
std::mutex g_where_mutex;
std::string g_where;
} // namespace

void heartbeat(const char *step) noexcept {
  g_step.store(step, std::memory_order_relaxed);
  g_beats.fetch_add(1, std::memory_order_relaxed);
}

void heartbeat_context(const std::string &where) {
  std::lock_guard<std::mutex> lock(g_where_mutex);
  g_where = where;
  g_beats.fetch_add(1, std::memory_order_relaxed);
}

Watchdog::Watchdog(double timeout_s, int rank) : timeout_s_(timeout_s), rank_(rank) {
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
  const auto tick = std::chrono::milliseconds(200);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_cv_.wait_for(lock, tick, [this] { return stop_; })) {
    const unsigned long long now_beats = g_beats.load(std::memory_order_relaxed);
    if (now_beats != seen) {
      seen = now_beats;
      last_change = clock::now();
      continue;
    }
    if (std::chrono::duration<double>(clock::now() - last_change).count() < timeout_s_)
      continue;
    std::string where;
    {
      std::lock_guard<std::mutex> w(g_where_mutex);
      where = g_where;
    }
    // No MPI here: this thread may not call MPI. Exiting makes mpiexec end the other ranks.
    std::fprintf(stderr,
                 "pio-harness: error: rank %d made no progress for %.0f s (StepTimeout) in %s, "
                 "step %s; exiting so that no rank waits forever (fix: a rank is stuck in a "
                 "collective call another rank did not make, or the step needs more time: raise "
                 "StepTimeout)\n",
                 rank_, timeout_s_, where.empty() ? "the harness" : where.c_str(),
                 g_step.load(std::memory_order_relaxed));
    std::fflush(stderr);
    std::_Exit(3);
  }
}

} // namespace pio::harness
