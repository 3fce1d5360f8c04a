#pragma once
/// The JSON results document (docs/results.md): typed results rendered as JSON, rewritten
/// atomically by rank 0 after every test so that completed tests survive a crash of a later one.

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "pio/results.hpp"
#include "reporter.hpp"

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

/// Writes the results document to its path after every event. A failed write is a warning on
/// `err` (the run goes on; the next write tries again).
class JsonReporter : public Reporter {
public:
  /// path: the results file; err: where write failures are reported.
  JsonReporter(std::string path, std::ostream &err) : path_(std::move(path)), err_(&err) {}
  void run_started(const RunResult &run) override { save(run); }
  void test_finished(const RunResult &run, const ModuleResult &, const TestResult &) override {
    save(run);
  }
  void block_finished(const RunResult &run, const ModuleResult &) override { save(run); }
  void run_finished(const RunResult &run) override { save(run); }

private:
  void save(const RunResult &run);
  std::string path_;
  std::ostream *err_;
};

} // namespace pio::harness
