#pragma once
/// A warning for every requested MPI-IO hint that is not in effect after open: MPI libraries drop
/// or replace hints in silence (ROMIO ignores striping_factor on a file that exists and turns
/// `romio_cb_write bogus` into automatic); the results record both sets of hints.

#include <ostream>
#include <set>
#include <string>

#include "report/reporter.hpp"

namespace pio::harness {

/// Writes "pio-harness: warning: block LABEL (file:line): hint KEY=VALUE requested, in effect:
/// ..." once per block and hint.
class HintWarningReporter : public Reporter {
public:
  /// err: the stream for warnings.
  explicit HintWarningReporter(std::ostream &err) : err_(&err) {}
  void block_started(const RunResult &, const ModuleResult &, int, int) override {
    warned_.clear();
  }
  void test_finished(const RunResult &, const ModuleResult &block, const TestResult &test) override;

private:
  std::ostream *err_;
  std::set<std::string> warned_; ///< hint keys warned about in this block
};

} // namespace pio::harness
