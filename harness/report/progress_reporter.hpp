#pragma once
/// Live progress on long runs (docs/reference/results.md, "Live progress"): on rank 0's error
/// stream one line per block start and at most one line per interval (10 s by default, 1 s with
/// --progress) saying which block and test run, the units done, the elapsed time, an estimate of
/// what is left (progress_estimate.hpp) and the current bandwidth; with --progress also one final
/// line per block.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "report/progress_estimate.hpp"
#include "report/reporter.hpp"
#include "report/unit_listener.hpp"

namespace pio::harness {

/// Seconds on a monotonic clock.
using ProgressClock = std::function<double()>;

/// Prints progress lines "pio-harness: progress: [i/n] <block> ..." on a stream. While a run
/// is in progress the runner hands it to the unit loop as its listener (unit_listener.hpp), so a
/// long test shows its units as they are done.
class ProgressReporter : public Reporter, public UnitListener {
public:
  /// Writes to `out`; `clock` (steady_clock by default) and `interval` (seconds) pace the lines;
  /// `every_block_end`: each block's final line is printed even when not due.
  explicit ProgressReporter(std::ostream &out, ProgressClock clock = {}, double interval = 1.0,
                            bool every_block_end = true);
  ProgressReporter(const ProgressReporter &) = delete;
  ProgressReporter &operator=(const ProgressReporter &) = delete;

  /// The blocks the run will run (from the pre-flight check), for the estimate of what is left.
  void set_plan(std::vector<PlannedBlock> plan) { eta_ = EtaEstimator(std::move(plan)); }
  /// Starts the clock.
  void run_started(const RunResult &run) override;
  /// "[i/n] <label> (<module>): started" (always printed).
  void block_started(const RunResult &run, const ModuleResult &block, int index,
                     int count) override;
  /// "[i/n] <label>: test j/m (<test>) done, <bandwidth>, elapsed, left" (paced).
  void test_finished(const RunResult &run, const ModuleResult &block,
                     const TestResult &test) override;
  /// "[i/n] <label>: block done, k/m tests ..., elapsed, left" (paced unless every_block_end).
  void block_finished(const RunResult &run, const ModuleResult &block) override;
  /// Nothing more to say.
  void run_finished(const RunResult &run) override;
  /// "[i/n] <label>: test j/m (<test>) rep r/R <phase>: units u/U, elapsed, left, MiB/s" (paced).
  void unit_done(const TestContext &test, int phase, std::int64_t units, std::int64_t bytes,
                 double aggregate_time_s) noexcept override;

private:
  bool due(double now) const { return now - last_line_ >= interval_; }
  void emit(double now, const std::string &text);
  std::string prefix() const;
  std::string times(double now) const; ///< "elapsed 1m02s, left ~4m10s"

  std::ostream *out_;
  ProgressClock clock_;
  double interval_;
  bool every_block_end_;
  double last_line_;
  double run_start_ = 0;
  EtaEstimator eta_;
  // The current block.
  const ModuleResult *block_ = nullptr;
  int index_ = 0, count_ = 0;
  double block_start_ = 0;
  /// The running phase (test, repetition, phase) and when it started on this clock: its first
  /// unit's report less that unit's time. A time-driven phase ends by its wall time, not by
  /// the timed part its units report.
  int phase_test_ = -1, phase_rep_ = -1, phase_ = -1;
  double phase_start_ = 0;
};

/// Monotonic seconds (steady_clock).
double steady_seconds();

} // namespace pio::harness
