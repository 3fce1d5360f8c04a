// The reporters on a fixed typed run: each one's output against its approved text, and the CSV
// file's guarantees (never overwrite, atomic rewrite, RFC 4180 quoting, growing columns).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "approval.hpp"
#include "pio/error.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/imb_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/save_schedule.hpp"
#include "sample_run.hpp"

using namespace pio;
using pio::harness::ConsoleReporter;
using pio::harness::CsvReporter;
using pio::harness::ImbReporter;
using pio::harness::TableOptions;
namespace fs = std::filesystem;

namespace {
/// A scratch directory removed with its contents.
struct Scratch {
  fs::path dir;
  Scratch() {
    static int count = 0;
    dir = fs::temp_directory_path() /
          ("pio-reporters-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string file(const std::string &name) const { return (dir / name).string(); }
};

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A small RFC 4180 reader, to check what a spreadsheet would see.
std::vector<std::vector<std::string>> parse_csv(const std::string &text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      REQUIRE(field.empty()); // quotes only around a whole field
      quoted = was_quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  REQUIRE(!quoted);
  REQUIRE(rows.back().empty()); // the file ends with a line break
  (void)was_quoted;
  rows.pop_back();
  return rows;
}

/// The cell of `column` in row `r` (1 = first data row).
std::string cell(const std::vector<std::vector<std::string>> &rows, size_t r,
                 const std::string &column) {
  const auto &h = rows.at(0);
  auto it = std::find(h.begin(), h.end(), column);
  REQUIRE(it != h.end());
  return rows.at(r).at(static_cast<size_t>(it - h.begin()));
}

bool has_column(const std::vector<std::vector<std::string>> &rows, const std::string &column) {
  return std::find(rows.at(0).begin(), rows.at(0).end(), column) != rows.at(0).end();
}

/// A reporter that stops the replay after `n` tests, to look at the file in between.
struct StopAfter : harness::Reporter {
  harness::Reporter &inner;
  int left;
  StopAfter(harness::Reporter &r, int n) : inner(r), left(n) {}
  void run_started(const RunResult &run) override { inner.run_started(run); }
  void test_finished(const RunResult &run, const ModuleResult &b, const TestResult &t) override {
    if (left-- <= 0)
      throw std::runtime_error("stop");
    inner.test_finished(run, b, t);
  }
};
} // namespace

TEST_CASE("console table: a row per repetition, failures, figure, closing line") {
  std::ostringstream out;
  ConsoleReporter console(out, TableOptions{});
  test::replay(test::sample_run(), console);
  CHECK(test::matches_approved("console.txt", out.str()));
  // The banner moved here from the runner; IMB blocks get no pio table.
  CHECK(out.str().rfind("pio-bench 0.2.0: 4 processes, test file /scratch/pio/testfile (lustre), "
                        "results pio-results.json\n",
                        0) == 0);
  CHECK(out.str().find("PingPong") == std::string::npos);
  CHECK(out.str().find("(some tests FAILED; see above)") != std::string::npos);
}

TEST_CASE("console table with ShowAverages shows the spread over repetitions") {
  std::ostringstream out;
  ConsoleReporter console(out, TableOptions{true, true, true, true});
  test::replay(test::sample_run(), console);
  CHECK(test::matches_approved("console_averages.txt", out.str()));
  // 2.67 and 3200 MiB/s: the median, the range and the deviation, never a bare mean.
  CHECK(out.str().find("2.67..3200.00") != std::string::npos);
  CHECK(out.str().find("2260.86") != std::string::npos); // sample stddev of {2.67, 3200}
}

TEST_CASE("IMB tables as the IMB 3.2 User Guide section 6 prints them") {
  std::ostringstream out;
  ImbReporter imb(out);
  test::replay(test::sample_run(), imb);
  CHECK(test::matches_approved("imb.txt", out.str()));
}

TEST_CASE("CSV file: one row per repetition, every parameter a column") {
  Scratch scratch;
  const std::string path = scratch.file("results.csv");
  {
    CsvReporter csv(path, false);
    test::replay(test::sample_run(), csv);
  }
  const std::string text = slurp(path);
  CHECK(test::matches_approved("results.csv", text));
  CHECK(!fs::exists(path + ".tmp"));
  const auto rows = parse_csv(text);
  // 2 + 2 repetitions, 1 failed test, 5 figure values, 8 IMB tests, 1 failed block.
  REQUIRE(rows.size() == 1 + 4 + 1 + 5 + 8 + 1);
  for (const auto &row : rows)
    CHECK(row.size() == rows[0].size());
  CHECK(cell(rows, 1, "layout") == "strided, \"cyclic\""); // comma and quotes survive
  CHECK(cell(rows, 1, "hint:romio_cb_write") == "enable");
  CHECK(cell(rows, 2, "bandwidth_MiBps") == "3200");
  CHECK(cell(rows, 5, "error") == "MPI_File_write_at_all: No space left on device");
  CHECK(cell(rows, 5, "rep").empty());
  CHECK(cell(rows, 6, "figure_value") == "peak bandwidth");
  CHECK(cell(rows, 12, "t_max_us") == "0.47");
  CHECK(cell(rows, 12, "message_bytes") == "1024");
  CHECK(cell(rows, 19, "module") == "tiled");
  // Plain numbers everywhere, never an exponent (8e-05 s is 0.00008).
  CHECK(!std::regex_search(text, std::regex("[0-9]e[+-][0-9]")));
}

TEST_CASE(
    "CSV: a phase's per-operation latencies in clat:<phase>:<stat> columns, empty elsewhere") {
  Scratch scratch;
  const std::string path = scratch.file("latency.csv");
  RunResult run = test::sample_run();
  PhaseResult &phase = run.modules.at(0).tests.at(0).reps.at(1).phases.at(0);
  phase.label = "write";
  phase.latency = OpLatencies{64, 2.1, 3.4, 41, {3, 5.5, 20, 40.5}};
  {
    CsvReporter csv(path, false);
    test::replay(run, csv);
  }
  const auto rows = parse_csv(slurp(path));
  const std::vector<std::string> stats = {"count",  "min_us", "mean_us", "max_us",
                                          "p50_us", "p90_us", "p99_us",  "p99.9_us"};
  const std::vector<std::string> want = {"64", "2.1", "3.4", "41", "3", "5.5", "20", "40.5"};
  // After every fixed measurement column, in that order.
  REQUIRE(rows.at(0).size() >= stats.size());
  for (size_t i = 0; i < stats.size(); ++i)
    CHECK(rows[0][rows[0].size() - stats.size() + i] == "clat:write:" + stats[i]);
  for (size_t i = 0; i < stats.size(); ++i) {
    CHECK(cell(rows, 1, "clat:write:" + stats[i]).empty()); // rep 0 has no latencies
    CHECK(cell(rows, 2, "clat:write:" + stats[i]) == want[i]);
  }
  for (const auto &row : rows)
    CHECK(row.size() == rows[0].size());
}

TEST_CASE("CSV: the latencies of a test's one unnamed phase are in clat:<stat> columns") {
  Scratch scratch;
  const std::string path = scratch.file("latency_unnamed.csv");
  RunResult run = test::sample_run();
  PhaseResult &phase = run.modules.at(0).tests.at(0).reps.at(1).phases.at(0);
  phase.label.clear();
  phase.latency = OpLatencies{64, 2.1, 3.4, 41, {3, 5.5, 20, 40.5}};
  {
    CsvReporter csv(path, false);
    test::replay(run, csv);
  }
  const auto rows = parse_csv(slurp(path));
  CHECK(cell(rows, 2, "clat:count") == "64");
  CHECK(cell(rows, 2, "clat:p99.9_us") == "40.5");
  for (const auto &name : rows.at(0))
    CHECK(name.find("clat::") == std::string::npos);
}

TEST_CASE("CSV quoting follows RFC 4180") {
  CHECK(harness::csv_field("plain") == "plain");
  CHECK(harness::csv_field("a,b") == "\"a,b\"");
  CHECK(harness::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(harness::csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(harness::csv_field("cr\r") == "\"cr\r\"");
  CHECK(harness::csv_field("").empty());
}

TEST_CASE("CSV never overwrites a file the run did not create") {
  Scratch scratch;
  const std::string path = scratch.file("mine.csv");
  std::ofstream(path) << "precious\n";
  CHECK_THROWS_AS(CsvReporter(path, false), pio::Error);
  CHECK(slurp(path) == "precious\n");
  {
    CsvReporter csv(path, true); // --overwrite
    csv.run_started(test::sample_run());
  }
  CHECK(slurp(path).rfind("module,block,", 0) == 0);

  // A file named like a temporary (a user's, or a crashed run's) is never used or touched:
  // the CSV's temporary is unique to this run, like the results file's.
  const std::string other = scratch.file("other.csv");
  std::ofstream(other + ".tmp") << "someone's\n";
  {
    CsvReporter csv(other, false);
    test::replay(test::sample_run(), csv);
  }
  CHECK(slurp(other + ".tmp") == "someone's\n");
  CHECK(slurp(other).rfind("module,block,", 0) == 0);

  // One created after the check is refused at the write, and left alone.
  const std::string late = scratch.file("late.csv");
  CsvReporter csv(late, false);
  std::ofstream(late) << "late\n";
  CHECK_THROWS_AS(csv.run_started(test::sample_run()), pio::Error);
  CHECK(slurp(late) == "late\n");

  // A symbolic link or a directory is never replaced, even with --overwrite.
  const std::string link = scratch.file("link.csv");
  fs::create_symlink(path, link);
  CHECK_THROWS_AS(CsvReporter(link, true), pio::Error);
  CHECK(fs::is_symlink(link));
  fs::create_directory(scratch.file("dir.csv"));
  CHECK_THROWS_AS(CsvReporter(scratch.file("dir.csv"), true), pio::Error);
  // Only the files named above are in the directory: no temporary is left behind.
  int files = 0;
  for (const auto &e : fs::directory_iterator(scratch.file("")))
    files += e.path().filename().string().find("pio-tmp") == std::string::npos ? 1 : 100;
  CHECK(files == 6);
}

TEST_CASE("CSV in a missing directory is an error naming the file, before any test") {
  Scratch scratch;
  const std::string path = scratch.file("no/such/dir/results.csv");
  try {
    CsvReporter csv(path, false);
    FAIL("no error");
  } catch (const pio::Error &e) {
    CHECK(std::string(e.what()).find(path) != std::string::npos);
    CHECK(!e.hint().empty());
  }
}

TEST_CASE("CSV rewrites the whole file after every test; a new column reaches earlier rows") {
  Scratch scratch;
  const std::string path = scratch.file("grow.csv");
  CsvReporter csv(path, false);
  StopAfter first(csv, 1);
  CHECK_THROWS(test::replay(test::sample_run(), first));
  auto rows = parse_csv(slurp(path));
  REQUIRE(rows.size() == 3); // header and test 0's two repetitions
  CHECK_FALSE(has_column(rows, "stripe_count"));
  CHECK_FALSE(has_column(rows, "hint:striping_factor"));
  CHECK(!fs::exists(path + ".tmp"));

  Scratch again;
  const std::string path2 = again.file("grow2.csv");
  CsvReporter csv2(path2, false);
  StopAfter second(csv2, 2);
  CHECK_THROWS(test::replay(test::sample_run(), second));
  rows = parse_csv(slurp(path2));
  REQUIRE(rows.size() == 5);
  for (const auto &row : rows)
    CHECK(row.size() == rows[0].size());
  CHECK(cell(rows, 1, "stripe_count").empty());
  CHECK(cell(rows, 1, "hint:striping_factor").empty());
  CHECK(cell(rows, 3, "stripe_count") == "4");
  CHECK(cell(rows, 3, "hint:striping_factor") == "4");
  CHECK(cell(rows, 3, "header_offset") == "4096");
  CHECK(!fs::exists(path2 + ".tmp"));
}

TEST_CASE(
    "Results files are rewritten after every test while small, then at most 1/20 of the time") {
  using harness::SaveSchedule;
  using std::chrono::milliseconds;
  const SaveSchedule::Clock::time_point t0{};
  const std::size_t small = SaveSchedule::kSmallBytes - 1, large = SaveSchedule::kSmallBytes;
  SaveSchedule s;
  CHECK(s.due(t0)); // nothing written yet
  s.saved(t0, t0 + milliseconds(500), small);
  CHECK(s.due(t0 + milliseconds(500))); // a small document: after every test, however slow
  s.saved(t0 + milliseconds(1000), t0 + milliseconds(1100), large); // 100 ms for a large one
  CHECK_FALSE(s.due(t0 + milliseconds(1100)));
  CHECK_FALSE(s.due(t0 + milliseconds(3099))); // 20 x 100 ms not yet passed
  CHECK(s.due(t0 + milliseconds(3100)));

  // save_when_due reads the clock: a large rewrite that ended now after 10 s is not due again
  // now, unless forced (a block's or the run's end).
  const auto now = SaveSchedule::Clock::now();
  s.saved(now - std::chrono::seconds(10), now, large);
  int saves = 0;
  auto save = [&] {
    ++saves;
    return large;
  };
  harness::save_when_due(s, false, save);
  CHECK(saves == 0);
  harness::save_when_due(s, true, save);
  CHECK(saves == 1);
}

TEST_CASE("console figure: plain numbers, 'not measured' for NaN, a detail table named not "
          "printed, and the summary of every block's figure of merit after all blocks") {
  std::ostringstream out;
  ConsoleReporter console(out, TableOptions{});
  test::replay(test::sample_run(), console);
  const std::string text = out.str();
  CHECK(text.find("  file bytes = 98734480 B\n") != std::string::npos);
  CHECK(text.find("  mean rate = 17443.3 MiB/s\n") != std::string::npos);
  CHECK(text.find("  ping-pong = not measured\n") != std::string::npos);
  CHECK(text.find("  protocol: 1 row in the results file (ShowAllTests on prints it here)\n") !=
        std::string::npos);
  CHECK(!std::regex_search(text, std::regex("[0-9]e[+-][0-9]")));
  // The summary comes after the last block and before the closing line.
  const auto summary = text.find("  summary: the figure of merit of every block");
  REQUIRE(summary != std::string::npos);
  CHECK(summary > text.rfind("== ["));
  CHECK(summary < text.find("\nresults: "));
  const std::string tail = text.substr(summary);
  // The figure's first value, the IMB block's t_avg at its shortest message and Mbytes/sec at its
  // longest, the table block's median per test (values from sample_run.cpp).
  CHECK(std::regex_search(tail, std::regex("simple_strided\\.write +peak bandwidth +3200 +MiB/s")));
  CHECK(std::regex_search(tail, std::regex("imb_mpi1 +t_avg at 0 B +[0-9.]+ +us")));
  CHECK(std::regex_search(tail, std::regex("imb_mpi1 +Mbytes/sec at [0-9]+[KM]? +[0-9.]+ +MiB/s")));
  CHECK(tail.find("tiled") == std::string::npos); // a failed block has no figure of merit
}

TEST_CASE("ShowAllTests: the detail tables of a figure are printed") {
  std::ostringstream out;
  TableOptions all;
  all.all_tests = true;
  ConsoleReporter console(out, all);
  test::replay(test::sample_run(), console);
  CHECK(out.str().find("  protocol:\n") != std::string::npos);
  CHECK(out.str().find("rows in the results file") == std::string::npos);
}

TEST_CASE("CSV: a row per figure value, its value as in the JSON, plain, NaN as not measured") {
  Scratch scratch;
  const std::string path = scratch.file("figure.csv");
  const RunResult run = test::sample_run();
  {
    CsvReporter csv(path, false);
    test::replay(run, csv);
  }
  const auto rows = parse_csv(slurp(path));
  const nlohmann::json doc = harness::to_json(run);
  size_t checked = 0;
  for (const auto &block : doc.at("modules")) {
    if (block.at("figure").is_null())
      continue;
    const auto &fig = block.at("figure");
    for (const auto &v : fig.at("values")) {
      size_t found = 0;
      for (size_t r = 1; r < rows.size(); ++r) {
        if (cell(rows, r, "figure_value") != v.at("name").get<std::string>() ||
            cell(rows, r, "block") != block.at("label").get<std::string>())
          continue;
        ++found;
        INFO(v.dump());
        CHECK(cell(rows, r, "figure") == fig.at("name").get<std::string>());
        CHECK(cell(rows, r, "rep").empty());
        // NaN in the typed figure: the JSON text holds null (nlohmann writes NaN so).
        if (std::isnan(v.at("value").get<double>())) {
          CHECK(cell(rows, r, "value").empty());
          CHECK(cell(rows, r, "unit") == "not measured");
        } else {
          const std::string text = cell(rows, r, "value");
          CHECK(text.find('e') == std::string::npos);
          CHECK(std::stod(text) == Approx(v.at("value").get<double>()).epsilon(1e-8));
          CHECK(cell(rows, r, "unit") == v.at("unit").get<std::string>());
        }
      }
      CHECK(found == 1);
      ++checked;
    }
  }
  CHECK(checked == 5);
  CHECK(cell(rows, 0 + 1, "figure").empty()); // repetition rows leave the figure columns empty
}

TEST_CASE("JSON and CSV write TimingScope and how a phase ended in the words of the results") {
  Scratch scratch;
  RunResult run = test::sample_run();
  TestResult &t = run.modules.at(0).tests.at(0);
  t.timing_scope = TimingScope::Phase;
  PhaseResult &phase = t.reps.at(0).phases.at(0);
  phase.timing_scope = TimingScope::Phase;
  const std::vector<std::pair<std::optional<PhaseEnd>, nlohmann::json>> ends = {
      {std::nullopt, nullptr},
      {PhaseEnd::Batched, "batched"},
      {PhaseEnd::PerUnit, "per_unit"},
      {PhaseEnd::WearOut, "wear_out"}};
  for (const auto &[end, word] : ends) {
    phase.end_check = end;
    const nlohmann::json doc = harness::to_json(run);
    const auto &tests = doc.at("modules").at(0).at("tests");
    CHECK(tests.at(0).at("timing_scope") == "phase");
    CHECK(tests.at(0).at("reps").at(0).at("phases").at(0).at("timing_scope") == "phase");
    CHECK(tests.at(0).at("reps").at(0).at("phases").at(0).at("end_check") == word);
    CHECK(tests.at(1).at("timing_scope") == "unit"); // the default
    CHECK(tests.at(1).at("reps").at(0).at("phases").at(0).at("end_check").is_null());
  }
  const std::string path = scratch.file("scope.csv");
  {
    CsvReporter csv(path, false);
    test::replay(run, csv);
  }
  const auto rows = parse_csv(slurp(path));
  CHECK(cell(rows, 1, "timing_scope") == "phase"); // the first test's two repetitions
  CHECK(cell(rows, 2, "timing_scope") == "phase");
  CHECK(cell(rows, 3, "timing_scope") == "unit"); // the second test's
}

TEST_CASE("JSON and CSV write a block's settings as each_result_setting names and types them") {
  Scratch scratch;
  RunResult run = test::sample_run();
  ModuleResult &m = run.modules.at(0);
  m.verify = VerifyMode::Timed;
  m.collective = false;
  m.file_view = false;
  m.sync_writes = true;
  m.cache_mode = CacheMode::Drop;
  m.warm_up_reps = 3;
  m.hints = {{"cb_nodes", "4"}};
  m.interface = "posix";
  const nlohmann::json block = harness::to_json(run).at("modules").at(0);
  CHECK(block.at("verify") == "timed");
  CHECK(block.at("collective") == false);
  CHECK(block.at("file_view") == false);
  CHECK(block.at("sync_writes") == true);
  CHECK(block.at("cache_mode") == "drop");
  CHECK(block.at("warm_up_reps") == 3);
  CHECK(block.at("hints") == nlohmann::json{{"cb_nodes", "4"}});
  CHECK(block.at("interface") == "posix");
  int keys = 0; // every setting the list names is in the document
  each_result_setting(m, [&](const char *key, const auto &) { keys += block.contains(key); });
  CHECK(keys == 8);

  const std::string path = scratch.file("settings.csv");
  {
    CsvReporter csv(path, false);
    test::replay(run, csv);
  }
  const auto rows = parse_csv(slurp(path));
  CHECK(cell(rows, 1, "verify") == "timed");
  CHECK(cell(rows, 1, "collective") == "false");
  CHECK(cell(rows, 1, "file_view") == "false");
  CHECK(cell(rows, 1, "sync_writes") == "true");
  CHECK(cell(rows, 1, "cache_mode") == "drop");
  CHECK(cell(rows, 1, "interface") == "posix");
}
