#pragma once
/// The one interface every output of a run goes through (google/benchmark's BenchmarkReporter is
/// the model). The runner holds a list of reporters and knows none of them; reporters see typed
/// results, never the runner. Called on rank 0 only, in this order: run_started, then per block
/// block_started, test_finished per test, block_finished; finally run_finished. The results
/// passed in are complete up to the event (the block's tests so far, the run's blocks so far).

#include "pio/results.hpp"

namespace pio::harness {

/// Receives a run's typed results as they are measured.
class Reporter {
public:
  virtual ~Reporter() = default;
  /// Provenance is known; nothing measured yet.
  virtual void run_started(const RunResult &) {}
  /// A block starts: `index` of `count` blocks; block.tests is empty.
  virtual void block_started(const RunResult &, const ModuleResult &, int /*index*/,
                             int /*count*/) {}
  /// A test finished (with or without error); it is block.tests.back().
  virtual void test_finished(const RunResult &, const ModuleResult &, const TestResult &) {}
  /// A block finished: its figure and error, if any, are set.
  virtual void block_finished(const RunResult &, const ModuleResult &) {}
  /// The run finished: status and exit code are set.
  virtual void run_finished(const RunResult &) {}
};

} // namespace pio::harness
