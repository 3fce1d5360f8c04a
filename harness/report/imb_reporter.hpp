#pragma once
/// IMB's own result tables (IMB 3.2 User Guide §6) for blocks whose module asks for them
/// (Output::Imb), so IMB users and their scripts read pio-bench's IMB kernels as they read IMB.

#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace pio::harness {

/// Prints, for each test of an Output::Imb block, one row of the IMB table of its kernel, and a
/// "# Benchmarking <title>" header whenever the table changes. What the table shows is the
/// test's CommSemantics::table (IMB 3.2 User Guide §3.3.1, §4.2.1, §6); the reporter knows no
/// benchmark by name:
///   TimeColumns::Single (single transfers): #bytes #repetitions t[usec] Mbytes/sec, t = t_max;
///   TimeColumns::Range, and single transfers showing several groups' spread (GroupRows::Worst,
///     or GroupRows::Auto with groups > 1): #bytes #repetitions t_min t_max t_avg Mbytes/sec;
///   Report::Latency: the same without Mbytes/sec, and without #bytes for BytesColumn::None.
/// #bytes is CommSemantics::message_bytes, #repetitions CommSemantics::ops_per_unit, the times
/// and Mbytes/sec are TestSummary::op (with several groups: the slowest group, IMB -multi 0).
/// ImbTable::title names the table (else the module), ::mode adds IMB-EXT's and IMB-IO's "MODE:"
/// line (a new table per mode), GroupRows::Each (IMB -multi 1) a Group column and every group's
/// row from the best repetition, ::group_ranks the "# Group  0:" lines under a Multi- title, and
/// ::unit states the unit of Mbytes/sec (MbytesUnit::MB: 10^6 B/s).
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
