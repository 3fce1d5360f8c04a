// Live progress in a real run (docs/reference/results.md, "Live progress"): forced on, rank 0
// prints paced lines and one final line per block on its error stream; its estimate of the time
// left is a lower bound from the declared time budgets; a caller's own error stream gets none by
// default.
#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>

#include "mpi_test.hpp"

using pio::test::on_root;

namespace {

std::vector<std::string> progress_lines(const std::string &err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("pio-harness: progress: ", 0) == 0)
      lines.push_back(l);
  return lines;
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

// A null block of 30 units of 50 ms (at least 1.5 s: a unit line is due inside it), then a
// small simple_strided block.
std::string config(const pio::test::TempDir &dir) {
  return "TestFile " + dir.file("tf") +
         "\n<ap_module>\nModuleName null\nLabel slow\nWorkUnits 30\nDelayMs 50\n</ap_module>\n"
         "<ap_module>\nModuleName simple_strided\nLabel small\nBufferSizes 2K 4K\nWorkUnits "
         "2\n</ap_module>\n";
}

} // namespace

TEST_CASE("forced progress prints paced lines and a final line per block", "[progress]") {
  pio::test::TempDir dir;
  pio::harness::RunOptions opt;
  opt.progress = pio::harness::ProgressMode::On;
  const auto t0 = std::chrono::steady_clock::now();
  const auto ran = pio::test::run_config_with(dir, "prog", config(dir), opt);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  const auto lines = progress_lines(ran.err);
  REQUIRE(pio::test::all_ranks(pio::test::rank() == 0 || lines.empty())); // rank 0 only
  REQUIRE(on_root([&] {
    REQUIRE(lines.size() >= 3);
    CHECK(lines.front().rfind("pio-harness: progress: [1/2] slow (null): started, elapsed ", 0) ==
          0);
    std::vector<std::string> finals;
    int units = 0, paced = 0, starts = 0;
    for (const auto &l : lines) {
      if (has(l, ": block "))
        finals.push_back(l);
      else if (has(l, "): started, "))
        ++starts; // always printed
      else
        ++paced;
      // The units so far pace this block's rest; the next block's time is unknown, so what is
      // left is a lower bound.
      if (has(l, "[1/2] slow: test 1/1 (null): units ") && has(l, "/30, elapsed ") &&
          has(l, ", left >="))
        ++units;
    }
    // The 50 ms units run for at least 1.5 s after the first line: a unit line fell due.
    CHECK(units >= 1);
    REQUIRE(finals.size() == 2);
    CHECK(starts == 2);
    CHECK(finals[0].rfind("pio-harness: progress: [1/2] slow: block done, 1/1 tests in ", 0) == 0);
    CHECK(finals[1].rfind("pio-harness: progress: [2/2] small: block done, 2/2 tests in ", 0) == 0);
    CHECK(has(finals[1], ", left ~0.0s"));
    // Paced lines are at least 1 s apart: never more than one plus one per second of the run.
    CHECK(paced <= 1 + static_cast<int>(seconds));
    return true;
  }));
}

TEST_CASE("the time left is the declared budgets, a lower bound of the time the run takes",
          "[progress]") {
  // Two time-driven null blocks (0.6 s and 0.9 s budgets), then a count-driven block of a
  // family that has not run: its time is not guessed, so the estimate is "at least".
  pio::test::TempDir dir;
  const std::string conf =
      "TestFile " + dir.file("tf") +
      "\n<ap_module>\nModuleName null\nLabel tb1\nTimeBudget 0.6\n</ap_module>\n"
      "<ap_module>\nModuleName null\nLabel tb2\nTimeBudget 0.9\n</ap_module>\n"
      "<ap_module>\nModuleName simple_strided\nLabel small\nBufferSizes 2K\nWorkUnits "
      "2\n</ap_module>\n";
  pio::harness::RunOptions opt;
  opt.progress = pio::harness::ProgressMode::On;
  const auto t0 = std::chrono::steady_clock::now();
  const auto ran = pio::test::run_config_with(dir, "eta", conf, opt);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto lines = progress_lines(ran.err);
    std::vector<std::string> starts;
    for (const auto &l : lines)
      if (has(l, "): started, "))
        starts.push_back(l);
    REQUIRE(starts.size() == 3);
    // Each start line: the budgets of the blocks from it on, and ">=" for the unknown block.
    CHECK(has(starts[0], "[1/3] tb1 (null): started, elapsed "));
    CHECK(has(starts[0], ", left >=1.5s"));
    CHECK(has(starts[1], "[2/3] tb2 (null): started, elapsed "));
    CHECK(has(starts[1], ", left >=0.9s"));
    CHECK(has(starts[2], "[3/3] small (simple_strided): started, elapsed "));
    CHECK(has(starts[2], ", left ?"));
    // A lower bound indeed: the run took at least the 1.5 s it announced.
    CHECK(seconds >= 1.5);
    CHECK(has(lines.back(), "[3/3] small: block done, 1/1 tests in "));
    CHECK(has(lines.back(), ", left ~0.0s"));
    return true;
  }));
}

TEST_CASE("progress is off by default on a caller's own error stream", "[progress]") {
  pio::test::TempDir dir;
  const std::string small = "TestFile " + dir.file("tf") +
                            "\n<ap_module>\nModuleName simple_strided\nBufferSizes 2K\n"
                            "WorkUnits 2\n</ap_module>\n";
  const auto automatic = pio::test::run_config(dir, "auto", small);
  pio::harness::RunOptions quiet;
  quiet.progress = pio::harness::ProgressMode::Off;
  const auto off = pio::test::run_config_with(dir, "quiet", small, quiet);
  REQUIRE(pio::test::all_ranks(automatic.exit_code == 0 && off.exit_code == 0));
  REQUIRE(pio::test::all_ranks(progress_lines(automatic.err).empty() &&
                               progress_lines(off.err).empty()));
}
