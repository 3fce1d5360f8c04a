#pragma once
/// StepTimeout (DESIGN §7: no rank waits forever): if the harness on this rank makes no progress
/// for the timeout — e.g. a module's collective call that another rank never makes — the rank
/// reports where it was stuck and exits non-zero; mpiexec then ends the other ranks. The results
/// document already on disk keeps every completed test.
/// It reads the step in progress from position.hpp.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pio::harness {

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
