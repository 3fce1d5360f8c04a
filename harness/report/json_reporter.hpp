#pragma once
/// The JSON results document (docs/reference/results.md): typed results rendered as JSON, rewritten
/// atomically by rank 0 during the run so that completed tests survive a crash of a later one.

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "pio/results.hpp"
#include "report/reporter.hpp"
#include "report/results_file.hpp"
#include "report/save_schedule.hpp"

namespace pio::harness {

/// The whole results document of a run.
nlohmann::json to_json(const RunResult &run);
/// One block of the document (modules[i]).
nlohmann::json to_json(const ModuleResult &block);
/// One test of a block (modules[i].tests[j]).
nlohmann::json to_json(const TestResult &test);
/// A figure: {"name", "values": [{"name","value","unit"}], "tables": [...], "notes": [...]}.
nlohmann::json to_json(const Figure &figure);
/// {"min","max","mean","median","stddev","count"}.
nlohmann::json to_json(const Stats &stats);
/// One node's file system of the test file's directory (hosts[i].file_system).
nlohmann::json to_json(const FileSystemInfo &fs);

/// Writes the results document to its file at the run's start, after a test when a rewrite is
/// due (SaveSchedule: every test while rewrites are cheap), after every block and at the run's
/// end. A failed write during the run is
/// a warning on `err` (the run goes on; the next write tries again); at the end of the run it
/// throws, and the run fails (exit 1): results are never lost silently.
class JsonReporter : public Reporter {
public:
  /// path: the results file, checked now (throws pio::Error: a symbolic link, a directory, an
  /// existing file without overwrite, a missing or read-only directory); err: where write
  /// failures are reported.
  JsonReporter(std::string path, bool overwrite, std::ostream &err)
      : file_(std::move(path), overwrite), err_(&err) {}
  void run_started(const RunResult &run) override { save(run, true); }
  /// Rewrites the document when a rewrite is due (SaveSchedule).
  void test_finished(const RunResult &run, const ModuleResult &, const TestResult &) override {
    save(run, false);
  }
  void block_finished(const RunResult &run, const ModuleResult &) override { save(run, true); }
  void run_finished(const RunResult &run) override { file_.save(to_json(run)); }

private:
  void save(const RunResult &run, bool force);
  ResultsFile file_;
  SaveSchedule schedule_;
  std::ostream *err_;
};

} // namespace pio::harness
