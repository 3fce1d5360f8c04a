#pragma once
/// The console table for people (thesis §3.2.3 Table 3.1 controls its columns); the JSON and
/// CSV results are for tools, IMB's own tables come from ImbReporter.

#include <ostream>

#include "report/reporter.hpp"

namespace pio::harness {

/// Which optional columns to show (thesis Table 3.1 directives).
struct TableOptions {
  bool show_averages = false; ///< ShowAverages: one row per test with the spread over reps
  bool open_time = false;     ///< ReportOpenTime
  bool close_time = false;    ///< ReportCloseTime
  bool header_offset = false; ///< ReportHeaderOffset
  bool all_tests = false;     ///< ShowAllTests: rows and detail tables of Output::Figure blocks
};

/// Prints the run banner, one table per block (a row per repetition, or per test with
/// ShowAverages), failures, each block's figure, the summary of every block's figure of merit
/// and the closing line. Blocks with Output::Imb get their heading, failures and figure only:
/// ImbReporter prints their tables; Output::Figure blocks a count of their tests and the figure.
class ConsoleReporter : public Reporter {
public:
  /// Writes to out (rank 0's standard output in a run).
  ConsoleReporter(std::ostream &out, TableOptions options);
  /// "pio-bench <version>: <N> processes, test file <path> (<fs>), results <path>".
  void run_started(const RunResult &run) override;
  /// "== [i/n] name (mode)  file:line  reps R" and the column header.
  void block_started(const RunResult &run, const ModuleResult &block, int index,
                     int count) override;
  /// The test's rows and its "FAILED: message" line.
  void test_finished(const RunResult &run, const ModuleResult &block,
                     const TestResult &test) override;
  /// The block's error and its figure as text.
  void block_finished(const RunResult &run, const ModuleResult &block) override;
  /// The summary (merit_summary.hpp), "results: <path>", and a pointer to the failures.
  void run_finished(const RunResult &run) override;

private:
  void print_column_header(const char *unit = "MiB/s");
  std::string header_unit_; ///< the rate unit of the last column header printed
  void print_rep_row(const TestResult &test, const Repetition &rep);
  void print_average_row(const TestResult &test);
  std::string optional_cells(double open_s, double close_s, std::int64_t header_offset) const;
  /// "flags: none", or how many tests carry which flag and each test's flags with reasons.
  void print_flag_summary(const RunResult &run);

  std::ostream &out_;
  TableOptions options_;
};

} // namespace pio::harness
