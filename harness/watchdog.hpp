#pragma once
/// StepTimeout (DESIGN §7: no rank waits forever): if the harness on this rank makes no progress
/// for the timeout — e.g. a module's collective call that another rank never makes — the rank
/// reports where it was stuck and exits non-zero; mpiexec then ends the other ranks. The results
/// document already on disk keeps every completed test.
/// The step in progress (module, test, method) is kept in fixed buffers, so that the fatal-signal
/// handlers (process_guard.cpp) can name it async-signal-safely.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pio::harness {

/// Records progress: the step this rank is entering. Cheap (relaxed atomic stores); a no-op
/// for timing purposes. `step` must be a string literal.
void heartbeat(const char *step) noexcept;

/// Records that this rank now waits for the other ranks (in an agreement or a barrier) after
/// the current step: the watchdog gives such a rank extra time, so that the rank really stuck
/// reports first.
void heartbeat_wait() noexcept;

/// Names the module and test being run, for the timeout and crash messages (truncated to 255
/// bytes).
void heartbeat_context(const std::string &where);

/// Writes "<module, test>, step <method>" into buf (always NUL-terminated); async-signal-safe.
void describe_position(char *buf, std::size_t size) noexcept;

/// Sets the rank the messages name.
void set_watchdog_rank(int rank) noexcept;
/// The rank set by set_watchdog_rank (-1 before); async-signal-safe.
int watchdog_rank() noexcept;

/// The StepTimeout used when the config sets none: generous, and raised to
/// kAdaptiveFactor times the slowest step seen so far.
constexpr double kDefaultStepTimeout = 600;
/// See kDefaultStepTimeout.
constexpr double kAdaptiveFactor = 10;

/// Watches the heartbeat on a background thread while it lives.
class Watchdog {
public:
  /// timeout_s == 0 watches nothing; timeout_s < 0 is the automatic default (kDefaultStepTimeout,
  /// adaptive); timeout_s > 0 is exact.
  Watchdog(double timeout_s, int rank);
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  void watch();
  double timeout_s_;
  bool adaptive_;
  int rank_;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace pio::harness
