// The timing method of docs/reference/timing.md, thesis Fig. 3.3, checked with the null module: a
// delay on one rank must show in the aggregate time and in the maximum over ranks, not in the
// minimum.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"
#include "run/unit_loop.hpp"

using pio::test::all_ranks;

TEST_CASE("a delay on one rank shows in aggregate time and rank max, not rank min", "[timing]") {
  pio::test::TempDir dir;
  const int slow = pio::test::size() - 1;
  const auto ran = pio::test::run_config(dir, "timing",
                                         "TestFile " + dir.file("unused") +
                                             "\n<ap_module>\nModuleName null\nModuleReps 2\n"
                                             "WorkUnits 3\nDelayMs 50\nDelayRank " +
                                             std::to_string(slow) + "\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(pio::test::on_root([&] {
    bool ok = true;
    const auto &test = ran.results.at("modules").at(0).at("tests").at(0);
    CHECK(test.at("reps").size() == 2);
    ok = ok && test.at("reps").size() == 2;
    for (const auto &rep : test["reps"]) {
      const double agg = rep["aggregate_time_s"];
      const double rmin = rep["rank_time_s"]["min"];
      const double rmax = rep["rank_time_s"]["max"];
      // 3 units x 50 ms of sleep on the slow rank. Its own time includes all of it (sleep never
      // returns early). The root's aggregate includes it too, less the time by which the root
      // left B1 after the slow rank did: a few ms at most, even with 4 ranks on 2 cores.
      ok = ok && agg >= 0.12 && rmax >= 0.15;
      CHECK(agg >= 0.12);
      CHECK(rmax >= 0.15);
      if (pio::test::size() > 1) {
        // The other ranks did nothing: their own time excludes the slow rank's sleep.
        CHECK(rmin < 0.075);
        ok = ok && rmin < 0.075;
      }
      CHECK(rep["units"] == 3);
    }
    return ok;
  }));
}

TEST_CASE("time-driven phases grow geometrically and stop at the budget", "[timing]") {
  using pio::harness::next_batch;
  // Root doubles the batch while time remains, capped by what the remaining budget holds.
  CHECK(next_batch(1, 1, 0.01, 1.0, 0) == 2);
  CHECK(next_batch(2, 3, 0.03, 1.0, 0) == 4);
  CHECK(next_batch(64, 127, 0.9, 1.0, 0) == 15); // 0.1 s left at ~7 ms per unit
  CHECK(next_batch(8, 15, 1.2, 1.0, 0) == 0);    // budget spent
  CHECK(next_batch(8, 15, 0.1, 1.0, 20) == 5);   // capped by max units
  CHECK(next_batch(8, 20, 0.1, 1.0, 20) == 0);
}

TEST_CASE("a time-driven phase runs until its budget is spent, all ranks alike", "[timing]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "budget",
                                         "TestFile " + dir.file("unused") +
                                             "\n<ap_module>\nModuleName null\nDelayMs 10\n"
                                             "TimeBudget 0.3\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(pio::test::on_root([&] {
    const auto &rep = ran.results.at("modules").at(0).at("tests").at(0).at("reps").at(0);
    const double agg = rep.at("aggregate_time_s");
    const double elapsed = rep.at("phases").at(0).at("elapsed_time_s");
    const std::int64_t units = rep.at("units");
    // The root stops only once the phase's elapsed wall time reaches the budget; the timed part
    // is within it. At >= 10 ms per unit the budget holds at most 30 units, and the geometric
    // series (1, 2, 4, ...) ran at least two batches (at 4 ranks on 2 cores a batch's syncs can
    // take most of the budget, so 1 + 2 units is all a loaded machine may fit).
    CHECK(elapsed >= 0.3);
    CHECK(agg <= elapsed);
    CHECK(agg >= 0.01 * static_cast<double>(units));
    CHECK(units >= 3);
    CHECK(units <= 30);
    return elapsed >= 0.3 && agg <= elapsed && units >= 3 && units <= 30;
  }));
}
