#pragma once
/// The results as a CSV file for spreadsheets and scripts: one row per repetition, every test
/// parameter a column (`-o csv=FILE` or CsvFile).

#include <map>
#include <string>
#include <vector>

#include "report/reporter.hpp"
#include "report/results_file.hpp"
#include "report/save_schedule.hpp"

namespace pio::harness {

/// One CSV field, quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
std::string csv_field(const std::string &text);

/// Writes one row per repetition (and one per failure) with the run's identifiers, the test's
/// parameters and hints, and its measurements. Later tests may bring new parameter or hint
/// columns, so the whole file is rewritten (when a rewrite is due: SaveSchedule, and always at
/// a block's and the run's end) under the results file's rules (ResultsFile): a temporary that
/// only this run uses and a rename, never replacing a link, a directory or a file this run did
/// not write.
class CsvReporter : public Reporter {
public:
  /// Checks `path` now as ResultsFile does (throws pio::Error with a fix). Creates nothing yet.
  CsvReporter(std::string path, bool overwrite);
  /// Writes the header row.
  void run_started(const RunResult &run) override;
  /// Notes where the block's rows start.
  void block_started(const RunResult &run, const ModuleResult &block, int index,
                     int count) override;
  /// Adds the test's rows and rewrites the file.
  void test_finished(const RunResult &run, const ModuleResult &block,
                     const TestResult &test) override;
  /// Updates the flags of the block's tests (some are raised at its end), adds a row for a
  /// block error outside any test and rewrites the file.
  void block_finished(const RunResult &run, const ModuleResult &block) override;
  /// Rewrites the file with every row.
  void run_finished(const RunResult &run) override;

  /// The file written.
  const std::string &path() const { return file_.path(); }

private:
  using Row = std::map<std::string, std::string>;
  void add_column(std::vector<std::string> &columns, const std::string &name);
  Row block_cells(const ModuleResult &block) const;
  /// The test's steadiness and flag cells.
  static void test_cells(Row &row, const TestResult &test);
  std::vector<std::string> header() const;
  std::string text() const;
  void write(bool force);

  ResultsFile file_;
  SaveSchedule schedule_;
  std::vector<std::string> params_;  ///< parameter columns, in order of first appearance
  std::vector<std::string> hints_;   ///< "hint:<key>" columns, in order of first appearance
  std::vector<std::string> latency_; ///< "clat:<phase>:<stat>" columns, after the measurements
  std::vector<Row> rows_;
  std::vector<int> row_test_;  ///< per row, its test's index (-1: a figure or block row)
  size_t block_first_row_ = 0; ///< the current block's first row
};

} // namespace pio::harness
