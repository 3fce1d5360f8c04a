#pragma once
/// Every failure of a run as one line on the error stream, with where and how to fix it.

#include <ostream>

#include "report/reporter.hpp"

namespace pio::harness {

/// Writes "pio-harness: error: module NAME (file:line), rank R: message" for each failed test or
/// block.
class ErrorLogReporter : public Reporter {
public:
  /// err: the error stream (every rank's errors reach rank 0 through the agreement).
  explicit ErrorLogReporter(std::ostream &err) : err_(&err) {}
  void test_finished(const RunResult &, const ModuleResult &block,
                     const TestResult &test) override {
    if (test.error)
      *err_ << "pio-harness: error: module " << block.module << " (" << block.config_location
            << "), " << where(*test.error) << ": " << test.error->message << "\n";
  }
  void block_finished(const RunResult &, const ModuleResult &block) override {
    if (block.error)
      *err_ << "pio-harness: error: module " << block.module << " (" << block.config_location
            << "), " << where(*block.error) << ": " << block.error->message << "\n";
  }

private:
  /// "rank 3 on node7" (the host when known).
  static std::string where(const ErrorRecord &e) {
    return "rank " + std::to_string(e.rank) + (e.host.empty() ? "" : " on " + e.host);
  }

  std::ostream *err_;
};

} // namespace pio::harness
