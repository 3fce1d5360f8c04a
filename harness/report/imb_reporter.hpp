#pragma once
/// IMB's own result tables (IMB 3.2 User Guide §6) for blocks whose module asks for them
/// (Output::Imb), so IMB users and their scripts read pio-bench's IMB kernels as they read IMB.

#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace pio::harness {

/// Prints, for each test of an Output::Imb block, one row of the IMB table of its kernel, and a
/// "# Benchmarking <name>" header whenever the kernel or its process count or groups change.
/// The columns follow the kernel's class (IMB 3.2 User Guide §3.3.1, §4.2.1, §6):
///   single transfer (PingPong, PingPing, Unidir_*, Bidir_*, S_*): #bytes #repetitions t[usec]
///     Mbytes/sec, with t = t_max;
///   parallel transfer, and single transfers run as several groups (-multi):
///     #bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec;
///   collective (Report::Latency): the same without Mbytes/sec, and Barrier without #bytes.
/// #bytes is CommSemantics::message_bytes, #repetitions CommSemantics::ops_per_unit, the times
/// and Mbytes/sec are TestSummary::op (with several groups: the slowest group, IMB -multi 0).
/// The kernel's name is the test's "benchmark" parameter, else the module's name. Parameters
/// that change the table: "mode" (aggregate / non-aggregate: IMB-EXT's and IMB-IO's "MODE:"
/// line, a new table per mode), "multi_outflag" 1 (IMB -multi 1: a Group column and every
/// group's row from the best repetition; single transfers then show t[usec] per group),
/// "group_ranks" ("0 1;2 3": the "# Group  0:" lines under a Multi- title), "mbytes_unit".
class ImbReporter : public Reporter {
public:
  /// Writes to out (rank 0's standard output in a run).
  explicit ImbReporter(std::ostream &out);
  /// Forgets the last header: each block starts a new table.
  void block_started(const RunResult &run, const ModuleResult &block, int index,
                     int count) override;
  /// The test's row, after a header if its kernel or process count differs from the last row's.
  void test_finished(const RunResult &run, const ModuleResult &block,
                     const TestResult &test) override;

private:
  std::ostream &out_;
  std::string table_; ///< the kernel, process count and groups of the table being printed
};

} // namespace pio::harness
