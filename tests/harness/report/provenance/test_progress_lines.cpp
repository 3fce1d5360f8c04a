// Live progress lines (docs/reference/results.md, "Live progress") from synthetic events on a clock
// the test sets: the pacing is checked by counting lines, never by measuring time.
#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "report/progress_reporter.hpp"

namespace {

using namespace pio;
using pio::harness::PlannedBlock;
using pio::harness::PlannedTest;
using pio::harness::ProgressReporter;

/// A planned block of `tests` tests, each with the given per-phase budgets.
PlannedBlock planned(const std::string &module, int tests, std::vector<double> budgets,
                     long reps = 1) {
  PlannedBlock b;
  b.module = module;
  b.family = module + ".so";
  b.reps = reps;
  b.tests.assign(static_cast<size_t>(tests), PlannedTest{std::move(budgets)});
  return b;
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  return lines;
}

/// A block of `tests` one-phase tests of `units` units of 1 MiB each.
struct Fixture {
  RunResult run;
  ModuleContext mctx;
  TestSpec spec;
  Fixture(int units) {
    run.modules.emplace_back();
    run.modules.back().module = "simple_strided";
    run.modules.back().label = "blk";
    run.modules.back().reps = 1;
    spec.label = "t0";
    spec.phases.at(0).label = "write";
    spec.phases.at(0).work_units = units;
  }
};

} // namespace

TEST_CASE("progress lines are paced to one per interval and say where the run is", "[progress]") {
  Fixture f(40);
  double now = 0;
  std::ostringstream out;
  ProgressReporter p(
      out, [&] { return now; }, 1.0);
  // This block is count-driven and its module has not run yet; the next one is time-driven.
  p.set_plan({planned("simple_strided", 2, {0}), planned("null", 1, {30})});
  ModuleResult &block = f.run.modules.back();
  p.run_started(f.run);
  p.block_started(f.run, block, 0, 2);
  block.tests_planned = 2; // known once init_module returned
  TestContext tc(f.mctx, f.spec);
  tc.size = 1;
  // 40 units at 0.1 s each: lines at 1.0, 2.0, 3.0 and 4.0 (the one at 0 said "started").
  for (int k = 1; k <= 40; ++k) {
    now = k / 10.0;
    p.unit_done(tc, 0, k, std::int64_t(k) << 20, k / 20.0);
  }
  TestResult t;
  t.label = "t0";
  t.summary.bandwidth_MiBps.count = 1;
  t.summary.bandwidth_MiBps.mean = 20;
  block.tests.push_back(t);
  now = 4.5; // not due: no line
  p.test_finished(f.run, block, block.tests.back());
  now = 4.6; // a block's final line is always printed
  p.block_finished(f.run, block);
  p.run_finished(f.run);

  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 6);
  // Nothing is known of this block's time at its start: only the next block's 30 s budget, as
  // a bound.
  CHECK(lines[0] == "pio-harness: progress: [1/2] blk (simple_strided): started, elapsed 0.0s, "
                    "left >=30.0s");
  // Then its first test's units tell its pace: 10 of 40 units in 1 s, 3 s left of it, and the
  // second test at that pace (4 s), before the next block's 30 s.
  CHECK(lines[1] == "pio-harness: progress: [1/2] blk: test 1/2 (t0) write: units 10/40, "
                    "elapsed 1.0s, left ~37.0s, 20.0 MiB/s");
  CHECK(lines[4] == "pio-harness: progress: [1/2] blk: test 1/2 (t0) write: units 40/40, "
                    "elapsed 4.0s, left ~34.0s, 20.0 MiB/s");
  // With the block done only the time-driven block is left: an estimate.
  CHECK(lines[5] == "pio-harness: progress: [1/2] blk: block done, 1/2 tests in 4.6s, "
                    "elapsed 4.6s, left ~30.0s");
}

TEST_CASE("a unit line says rep, time budget and failures", "[progress]") {
  Fixture f(0);
  f.spec.phases.at(0).time_budget_s = 10;
  f.run.modules.back().reps = 3;
  double now = 0;
  std::ostringstream out;
  ProgressReporter p(
      out, [&] { return now; }, 1.0);
  p.set_plan({planned("simple_strided", 1, {0}), planned("simple_strided", 1, {10}, 3),
              planned("null", 1, {4})});
  ModuleResult &block = f.run.modules.back();
  p.run_started(f.run);
  now = 0.5;
  p.block_started(f.run, block, 1, 3);
  block.tests_planned = 1;
  TestContext tc(f.mctx, f.spec);
  tc.rep = 1;
  tc.size = 2;
  tc.groups = 2;
  now = 2;
  p.unit_done(tc, 0, 7, 3 << 20, 1.0);
  TestResult t;
  t.label = "t0";
  t.error = ErrorRecord{1, "boom", {}};
  block.tests.push_back(t);
  now = 3;
  p.test_finished(f.run, block, block.tests.back());
  now = 3.5;
  block.error = ErrorRecord{0, "figure", {}};
  p.block_finished(f.run, block);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 4);
  // rep 2 of 3, 1 s of a 10 s budget: 30 - 11 s of the budgets left, and the 4 s block after.
  CHECK(lines[1] == "pio-harness: progress: [2/3] blk: test 1/1 (t0) rep 2/3 write: units 7 "
                    "(time-driven, 10.0s budget), elapsed 2.0s, left ~23.0s, 12.0 MiB/s");
  CHECK(lines[2] == "pio-harness: progress: [2/3] blk: test 1/1 (t0) FAILED, elapsed 3.0s, "
                    "left ~4.0s");
  CHECK(lines[3] == "pio-harness: progress: [2/3] blk: block FAILED, 1/1 tests (1 failed) in "
                    "3.0s, elapsed 3.5s, left ~4.0s");
}

TEST_CASE("a time-driven phase is as far as its wall time, not its units' timed part",
          "[progress]") {
  // A 10 s phase whose units are timed for half the wall time (hooks, waits, a loaded machine):
  // its first unit, reported at 1 s with 0.5 s timed, puts its start at 0.5 s, so at 6 s 4.5 s
  // are left, not the 7 s its timed part (3 s) would leave. The old line said "left ~7.0s"
  // here, and "left ~13.6s" at 30 s of a 30 s null phase under load.
  Fixture f(0);
  f.spec.phases.at(0).time_budget_s = 10;
  double now = 0;
  std::ostringstream out;
  ProgressReporter p(
      out, [&] { return now; }, 1.0);
  p.set_plan({planned("null", 1, {10})});
  ModuleResult &block = f.run.modules.back();
  p.run_started(f.run);
  p.block_started(f.run, block, 0, 1);
  block.tests_planned = 1;
  TestContext tc(f.mctx, f.spec);
  tc.size = 1;
  for (int k = 1; k <= 6; ++k) {
    now = k;
    p.unit_done(tc, 0, k, 0, k / 2.0);
  }
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 7);
  CHECK(lines[6] == "pio-harness: progress: [1/1] blk: test 1/1 (t0) write: units 6 "
                    "(time-driven, 10.0s budget), elapsed 6.0s, left ~4.5s");
}

TEST_CASE("the default rate: every block start, other lines at most one per interval",
          "[progress]") {
  Fixture f(1);
  double now = 0;
  std::ostringstream out;
  ProgressReporter p(
      out, [&] { return now; }, 10.0, false);
  ModuleResult &block = f.run.modules.back();
  p.run_started(f.run);
  for (int i = 0; i < 3; ++i) { // three 1 s blocks: every start, no final line falls due
    now = i;
    p.block_started(f.run, block, i, 3);
    now = i + 0.9;
    p.block_finished(f.run, block);
  }
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 3);
  for (int i = 0; i < 3; ++i)
    CHECK(lines[static_cast<size_t>(i)].rfind("pio-harness: progress: [" + std::to_string(i + 1) +
                                                  "/3] blk (simple_strided): started",
                                              0) == 0);
}

TEST_CASE("progress durations read as seconds, minutes or hours", "[progress]") {
  CHECK(harness::progress_duration(0) == "0.0s");
  CHECK(harness::progress_duration(59.94) == "59.9s");
  CHECK(harness::progress_duration(61) == "1m01s");
  CHECK(harness::progress_duration(3725) == "1h02m");
  CHECK(harness::progress_duration(-1) == "?");
}
