#pragma once
/// StepTimeout (no rank waits forever, docs/reliability.md): if the harness on this rank makes no progress
/// for the timeout — e.g. a module's collective call that another rank never makes — the rank
/// reports where it was stuck and exits non-zero; mpiexec then ends the other ranks. The results
/// document already on disk keeps every completed test.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pio::harness {

/// Records progress: the step this rank is entering. Cheap (two relaxed atomic stores); a no-op
/// for timing purposes. `step` must be a string literal.
void heartbeat(const char *step) noexcept;

/// Names the module and test being run, for the timeout message.
void heartbeat_context(const std::string &where);

/// Watches the heartbeat on a background thread while it lives.
class Watchdog {
public:
  /// timeout_s <= 0 watches nothing.
  Watchdog(double timeout_s, int rank);
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  void watch();
  double timeout_s_;
  int rank_;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace pio::harness
