// The estimate of the time left (progress_estimate.hpp) from planned blocks with time budgets and
// the measured rates of earlier blocks of a module or family, on a clock the test sets.
#include <catch2/catch.hpp>

#include "report/progress_estimate.hpp"

namespace {

using namespace pio::harness;

/// A block of `tests` tests of `module` (family `family`), each with the given phase budgets.
PlannedBlock block(const std::string &module, const std::string &family, int tests,
                   std::vector<double> budgets, long reps = 1) {
  PlannedBlock b;
  b.module = module;
  b.family = family;
  b.reps = reps;
  b.tests.assign(static_cast<size_t>(tests), PlannedTest{std::move(budgets)});
  return b;
}

} // namespace

TEST_CASE("the time left comes from budgets and measured rates, never from a test count",
          "[progress]") {
  // 0: 3 count-driven tests; 1: 2 time-driven tests of 5 s, 2 reps; 2: 4 count-driven tests of
  // the same module as 0; 3: 2 count-driven tests of another module of the same family as 0;
  // 4: one count-driven test of a family that never runs before it.
  EtaEstimator e(
      {block("imb_pingpong", "imb_mpi1.so", 3, {0}), block("beff_io", "beff_io.so", 2, {5}, 2),
       block("imb_pingpong", "imb_mpi1.so", 4, {0}), block("imb_allreduce", "imb_mpi1.so", 2, {0}),
       block("b_eff", "beff.so", 1, {0})});
  e.block_started(0, 5, 0);
  // Nothing measured: only the 20 s of budgets are certain.
  CHECK(eta_text(e.left(0)) == "left >=20.0s");
  e.test_finished(3);
  // The running test and the one after it take the block's pace so far (3 s each); the run is
  // still "at least" for the block nothing is known of.
  CHECK(eta_text(e.left(3)) == "left >=26.0s");
  e.test_finished(5);
  e.test_finished(9);
  e.block_finished(9); // 9 s for 3 test repetitions: 3 s each for imb_pingpong and imb_mpi1.so
  // Blocks 1-3 have estimates (20 s; 4 x 3 s; 2 x 3 s by the family), block 4 none.
  CHECK(eta_text(e.left(9)) == "left >=38.0s");
  e.block_started(1, 5, 9);
  // Rep 2 of the first test, half-way through its phase: 20 - 7.5 s of budgets left.
  e.unit_progress(0, 1, 0, 0.5);
  CHECK(eta_text(e.left(16.5)) == "left >=30.5s");
  e.test_finished(20);
  e.block_finished(30);
  e.block_started(2, 5, 30);
  e.unit_progress(0, 0, 0, 0.5); // half of the first of 4 tests: 3.5 x 3 s
  CHECK(eta_text(e.left(31.5)) == "left >=16.5s");
  e.test_finished(33);
  e.test_finished(34);
  e.test_finished(35);
  e.test_finished(36);
  e.block_finished(36); // imb_pingpong: 15 s for 7 test repetitions
  e.block_started(3, 5, 36);
  // imb_allreduce never ran: the family's 15 s / 7 per test repetition, as an estimate.
  CHECK(e.left(36).kind == Eta::Kind::AtLeast);
  CHECK(e.left(36).seconds == Approx(2 * 15.0 / 7));
  e.block_finished(40);
  e.block_started(4, 5, 40);
  CHECK(eta_text(e.left(40)) == "left ?"); // b_eff's first block: nothing known
  e.block_finished(50);
  CHECK(eta_text(e.left(50)) == "left ~0.0s");
}

TEST_CASE("a run of time-driven blocks is estimated from its budgets alone", "[progress]") {
  PlannedBlock settled = block("null", "null.so", 1, {2, 3});
  settled.settle_s = 1;
  EtaEstimator e({block("null", "null.so", 2, {4}, 3), settled});
  e.block_started(0, 2, 0);
  CHECK(eta_text(e.left(0)) == "left ~30.0s"); // 2 x 3 x 4 s + 5 s + 1 s settle
  e.test_finished(12);
  e.unit_progress(1, 2, 0, 1.0); // the last unit of the second test's last repetition
  CHECK(eta_text(e.left(25)) == "left ~6.0s");
  e.block_finished(25);
  e.block_started(1, 2, 25);
  e.unit_progress(0, 0, 1, 0.0); // the second phase starts: its 3 s and the settle time
  CHECK(eta_text(e.left(27)) == "left ~4.0s");
}

TEST_CASE("a phase with a unit cap or without a plan bounds nothing", "[progress]") {
  // A capped budget is given as 0 (count-driven); blocks the plan does not name are unknown.
  EtaEstimator e({block("beff_io", "beff_io.so", 1, {0, 6})});
  e.block_started(0, 2, 0);
  CHECK(eta_text(e.left(0)) == "left >=6.0s");
  e.block_finished(10);
  CHECK(eta_text(e.left(10)) == "left ?");
  EtaEstimator none;
  none.block_started(0, 1, 0);
  CHECK(eta_text(none.left(0)) == "left ?");
}

TEST_CASE("a block no earlier block tells of is estimated from its own latest tests, not its "
          "shortest",
          "[progress]") {
  // b_eff as the first block: 600 tests, the 30 of the first message length 1 ms each (a fixed
  // loop length), every later one about 12 ms (loops calibrated to LoopTime). The old estimate
  // took the shortest test as the pace of all that are left and said "left >=0.6s" with more
  // than 6 s to go.
  EtaEstimator e({block("beff", "beff.so", 600, {0})});
  e.block_started(0, 1, 0);
  double now = 0;
  std::vector<double> took;
  for (int i = 0; i < 600; ++i)
    took.push_back(i < 30 ? 0.001 : 0.010 + 0.004 * (i % 3) / 2.0);
  auto left_after = [&](int done) {
    double rest = 0;
    for (int i = done; i < 600; ++i)
      rest += took[static_cast<size_t>(i)];
    return rest;
  };
  for (int i = 0; i < 60; ++i) {
    now += took[static_cast<size_t>(i)];
    e.test_finished(now);
    if (i + 1 == 40) { // 10 tests into the second length
      const Eta eta = e.left(now);
      INFO(eta_text(eta) << " with " << left_after(40) << " s to go");
      CHECK(eta.kind == Eta::Kind::About);
      CHECK(eta.seconds > 0.5 * left_after(40));
    }
  }
  const Eta eta = e.left(now);
  INFO(eta_text(eta) << " with " << left_after(60) << " s to go");
  CHECK(eta.kind == Eta::Kind::About);
  CHECK(eta.seconds == Approx(left_after(60)).epsilon(0.1));
  // Half-way through the running test, its other half and the 539 after it are left.
  CHECK(e.left(now + 0.006).seconds == Approx(eta.seconds - 0.006).margin(1e-9));
  // Nothing finished yet: only what it is at least.
  EtaEstimator first({block("beff", "beff.so", 600, {0})});
  first.block_started(0, 1, 0);
  CHECK(eta_text(first.left(0.5)) == "left ?");
}

TEST_CASE("the running test's units tell what is left of it, also past the block's pace",
          "[progress]") {
  // Two count-driven tests of 5 repetitions; the first took 10 s. The second has been running
  // for 20 s, longer than the first took, and its units say 4 of its 5 repetitions are done:
  // 5 s are left of it. The old estimate said "left ?" here (a test past its pace has nothing
  // left by the pace), and nothing for a first test half done.
  EtaEstimator e({block("simple_strided", "simple_strided.so", 2, {0}, 5)});
  e.block_started(0, 1, 0);
  e.unit_progress(0, 2, 0, 0.5);               // the first test half done after 5 s
  CHECK(eta_text(e.left(5)) == "left ~15.0s"); // 5 s of it and a test of 10 s after it
  e.test_finished(10);
  e.unit_progress(1, 3, 0, 1.0);
  CHECK(eta_text(e.left(30)) == "left ~5.0s");
}

TEST_CASE("--check's planned time: budgets and settle times, and what is not known before the "
          "run",
          "[progress]") {
  PlannedBlock settled = block("null", "null.so", 1, {2, 3});
  settled.settle_s = 1;
  CHECK(planned_time_text({block("null", "null.so", 2, {4}, 3), settled}) ==
        "~30.0s (time-driven phases and settle times)");
  CHECK(planned_time_text(
            {block("beff_io", "beff_io.so", 2, {600}), block("beff", "beff.so", 9, {0})}) ==
        "at least 20m00s (time-driven phases and settle times); 1 of 2 blocks is count-driven, "
        "known only as it runs");
  // b_eff_io under MaxFileSize: its T is what it takes at most.
  PlannedBlock capped = block("beff_io", "beff_io.so", 3, {0, 0});
  for (PlannedTest &t : capped.tests)
    t.capped = {100, 200};
  CHECK(planned_time_text({capped}) ==
        "up to 15m00s in time-driven phases a unit cap may end sooner");
  // With its share of SuiteTime the module keeps to it: about that long, and while it runs,
  // what is left of it.
  PlannedBlock shared = capped;
  shared.budget_s = 900;
  CHECK(planned_time_text({shared}) == "~15m00s (time-driven phases and settle times)");
  EtaEstimator e({shared, block("null", "null.so", 1, {5})});
  e.block_started(0, 2, 0);
  CHECK(eta_text(e.left(300)) == "left ~10m05s");
  CHECK(planned_time_text({capped, block("beff", "beff.so", 9, {0})}) ==
        "up to 15m00s in time-driven phases a unit cap may end sooner; 1 of 2 blocks is "
        "count-driven, known only as it runs");
  CHECK(planned_time_text({block("beff", "beff.so", 9, {0})}) ==
        "not known before the run (1 of 1 block is count-driven, known only as it runs)");
}
