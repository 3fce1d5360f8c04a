// The measurement controls of docs/reference/timing.md: TimingScope (unit or phase), StoneWall, and
// the end check of time-driven phases (batched, or b_eff_io 2.1's prediction after every unit).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "mpi_test.hpp"
#include "run/unit_loop.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

/// The first test of the first block.
const nlohmann::json &first_test(const pio::test::Ran &ran) {
  return ran.results.at("modules").at(0).at("tests").at(0);
}

/// A phase of the first repetition of the first test.
const nlohmann::json &phase(const pio::test::Ran &ran, size_t k) {
  return first_test(ran).at("reps").at(0).at("phases").at(k);
}

/// A config running the phase-loop test module with the given block lines.
std::string phase_loop_config(const pio::test::TempDir &dir, const std::string &lines) {
  return "TestFile " + dir.file("loop.dat") + "\n<ap_module>\nModuleName test_phase_loop\n" +
         lines + "</ap_module>\n";
}

/// b_eff_io 2.1's loop on a synthetic clock: calls of the given durations until its rule stops
/// it (at most durations.size() calls); returns the calls made.
std::int64_t per_unit_loop(const std::vector<double> &durations, double budget,
                           std::int64_t max_units) {
  double clock = 0;
  std::int64_t done = 0;
  for (double d : durations) {
    clock += d;
    ++done;
    if (pio::harness::next_per_unit(done, clock, budget, max_units) == 0)
      break;
  }
  return done;
}

} // namespace

TEST_CASE("per-unit end check predicts the time after one more unit, as b_eff_io 2.1",
          "[measure_controls]") {
  using pio::harness::next_per_unit;
  // conti = elapsed * (r + 1) / r <= budget.
  CHECK(next_per_unit(0, 0.0, 1.0, 0) == 1); // the first unit always runs
  CHECK(next_per_unit(1, 0.3, 1.0, 0) == 1); // 0.6 predicted
  CHECK(next_per_unit(2, 0.6, 1.0, 0) == 1); // 0.9
  CHECK(next_per_unit(3, 0.9, 1.0, 0) == 0); // 1.2 > 1.0
  CHECK(next_per_unit(1, 0.5, 1.0, 0) == 1); // exactly 1.0 still fits
  CHECK(next_per_unit(1, 0.51, 1.0, 0) == 0);
  CHECK(next_per_unit(4, 0.1, 1.0, 4) == 0); // max units reached
  CHECK(next_per_unit(3, 0.1, 1.0, 4) == 1);
  // Constant 0.3 s calls in 1 s: 3 calls (the fourth would end at 1.2 s).
  CHECK(per_unit_loop(std::vector<double>(10, 0.3), 1.0, 0) == 3);
  // The prediction is the mean so far, not the last call: a slow first call holds back.
  CHECK(per_unit_loop({0.6, 0.1, 0.1, 0.1, 0.1}, 1.0, 0) == 1);      // 0.6 * 2 > 1
  CHECK(per_unit_loop({0.1, 0.1, 0.1, 0.6, 0.1, 0.1}, 1.0, 0) == 4); // 0.9 * 5 / 4 > 1
  CHECK(per_unit_loop(std::vector<double>(10, 0.01), 1.0, 5) == 5);
  // Batched and per-unit choose by Phase::end_check.
  using pio::EndCheck;
  CHECK(pio::harness::next_units(EndCheck::PerUnit, 8, 3, 0.3, 1.0, 0) == 1);
  CHECK(pio::harness::next_units(EndCheck::Batched, 8, 3, 0.03, 1.0, 0) == 16);
}

TEST_CASE("StoneWall caps a later phase to the fraction of units the phase before it ran",
          "[measure_controls]") {
  using pio::harness::stonewall_cap;
  CHECK(stonewall_cap(3, 50, 50) == 3);
  CHECK(stonewall_cap(3, 50, 100) == 6);
  CHECK(stonewall_cap(3, 50, 10) == 1);  // 0.6 rounded up
  CHECK(stonewall_cap(50, 50, 50) == 0); // the phase before ran all: no cap
  CHECK(stonewall_cap(1, 0, 50) == 0);
}

TEST_CASE("TimingScope is recorded per test, phase and CSV row; unit is the default",
          "[measure_controls]") {
  for (const std::string scope : {"", "unit", "phase"}) {
    pio::test::TempDir dir;
    const std::string csv = dir.file("out.csv");
    const auto ran = pio::test::run_config(
        dir, "scope",
        "TestFile " + dir.file("unused") + "\nCsvFile " + csv +
            "\n<ap_module>\nModuleName null\nWorkUnits 4\nDelayMs 1\n" +
            (scope.empty() ? "" : "TimingScope " + scope + "\n") + "</ap_module>\n");
    REQUIRE(all_ranks(ran.exit_code == 0));
    const std::string want = scope.empty() ? "unit" : scope;
    REQUIRE(on_root([&] {
      std::ifstream in(csv);
      std::stringstream text;
      text << in.rdbuf();
      const std::string header = text.str().substr(0, text.str().find('\n'));
      CHECK(header.find("timing_scope,stone_wall_s") != std::string::npos);
      CHECK(text.str().find("," + want + ",0,") != std::string::npos);
      const auto &t = first_test(ran);
      CHECK(t.at("timing_scope") == want);
      CHECK(t.at("stone_wall_s") == 0);
      CHECK(phase(ran, 0).at("timing_scope") == want);
      CHECK(phase(ran, 0).at("units") == 4);
      CHECK(phase(ran, 0).at("stonewalled") == false);
      CHECK(phase(ran, 0).at("end_check").is_null());
      return t.at("timing_scope") == want && phase(ran, 0).at("units") == 4;
    }));
  }
}

TEST_CASE("StoneWall turns a count-driven phase into a time-bounded one, in both scopes",
          "[measure_controls]") {
  for (const std::string scope : {"unit", "phase"}) {
    pio::test::TempDir dir;
    // A budget every first unit outlasts: exactly one unit, then the root stops everyone.
    const auto tiny = pio::test::run_config(
        dir, "tiny",
        "TestFile " + dir.file("unused") +
            "\n<ap_module>\nModuleName null\nWorkUnits 1000\nDelayMs 2\nStoneWall 0.000000001\n"
            "TimingScope " +
            scope + "\n</ap_module>\n");
    REQUIRE(all_ranks(tiny.exit_code == 0));
    REQUIRE(on_root([&] {
      const auto &p = phase(tiny, 0);
      CHECK(p.at("units") == 1);
      CHECK(p.at("stonewalled") == true);
      CHECK(p.at("units_limit") == 1000);
      CHECK(p.at("end_check") == "batched");
      CHECK(p.at("time_budget_s").get<double>() == Approx(1e-9));
      CHECK(first_test(tiny).at("stone_wall_s").get<double>() == Approx(1e-9));
      return p.at("units") == 1 && p.at("stonewalled") == true;
    }));
    // A budget no phase reaches: all declared units.
    const auto wide = pio::test::run_config(dir, "wide",
                                            "TestFile " + dir.file("unused") +
                                                "\n<ap_module>\nModuleName null\nWorkUnits "
                                                "5\nStoneWall 86400\nTimingScope " +
                                                scope + "\n</ap_module>\n");
    REQUIRE(all_ranks(wide.exit_code == 0));
    REQUIRE(on_root([&] {
      CHECK(phase(wide, 0).at("units") == 5);
      CHECK(phase(wide, 0).at("stonewalled") == true);
      return phase(wide, 0).at("units") == 5;
    }));
  }
}

TEST_CASE("a read after a stonewalled write reads only what the write wrote, byte-exact",
          "[measure_controls]") {
  for (const std::string scope : {"unit", "phase"}) {
    pio::test::TempDir dir;
    // Writes of 40 ms against 0.15 s: a few of the 50 units. Reads are fast and would run on
    // into unwritten units (and fail their byte check) without the cap.
    const auto ran = pio::test::run_config(
        dir, "cap",
        phase_loop_config(dir, "WorkUnits 50\nWriteDelayMs 40\nStoneWall 0.15\nTimingScope " +
                                   scope + "\n"));
    INFO(ran.err);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      const std::int64_t written = phase(ran, 0).at("units");
      const std::int64_t read = phase(ran, 1).at("units");
      CHECK(written >= 1);
      CHECK(written < 50);
      CHECK(phase(ran, 1).at("units_limit") == written);
      CHECK(read >= 1);
      CHECK(read <= written);
      CHECK(phase(ran, 1).at("bytes") == read * 64 * pio::test::size());
      return written < 50 && read <= written;
    }));
  }
  // Without StoneWall both phases run every unit and the read checks them all.
  pio::test::TempDir dir;
  const auto all = pio::test::run_config(dir, "all", phase_loop_config(dir, "WorkUnits 6\n"));
  REQUIRE(all_ranks(all.exit_code == 0));
  REQUIRE(
      on_root([&] { return phase(all, 0).at("units") == 6 && phase(all, 1).at("units") == 6; }));
}

TEST_CASE("TimingScope phase: a rank failing mid-loop is agreed at the end, without a hang",
          "[measure_controls]") {
  const int last = pio::test::size() - 1;
  for (const std::string method : {"before_work_unit", "work_unit", "after_work_unit"}) {
    pio::test::TempDir dir;
    const auto ran = pio::test::run_config(
        dir, "fail",
        phase_loop_config(dir, "WorkUnits 5\nTimingScope phase\nFailIn " + method + "\nFailRank " +
                                   std::to_string(last) + "\nFailUnit 2\n"));
    INFO(method);
    REQUIRE(all_ranks(ran.exit_code == 1));
    REQUIRE(on_root([&] {
      const auto &err = first_test(ran).at("error");
      const std::string msg = err.at("message");
      const std::string want =
          "injected failure in " + method + " at unit 2 on rank " + std::to_string(last);
      CHECK(msg.find(want) != std::string::npos);
      CHECK(err.at("rank") == last);
      return msg.find(want) != std::string::npos && err.at("rank") == last;
    }));
  }
}

TEST_CASE("pattern modules under StoneWall: written and read data verified byte-exact",
          "[measure_controls]") {
  for (const std::string scope : {"unit", "phase"})
    for (const std::string mode : {"write", "read", "re-write", "read-modify-write"})
      for (const std::string wall : {"0.000000001", "86400"}) {
        pio::test::TempDir dir;
        const auto ran = pio::test::run_config(
            dir, "pattern",
            "TestFile " + dir.file("strided.dat") +
                "\n<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 6\nMode " +
                mode + "\nVerify on\nStoneWall " + wall + "\nTimingScope " + scope +
                "\n</ap_module>\n");
        INFO(scope << " " << mode << " StoneWall " << wall << "\n" << ran.err);
        REQUIRE(all_ranks(ran.exit_code == 0));
        const std::int64_t want = wall == "86400" ? 6 : 1;
        REQUIRE(on_root([&] {
          CHECK(phase(ran, 0).at("units") == want);
          CHECK(first_test(ran).at("error").is_null());
          return phase(ran, 0).at("units") == want;
        }));
      }
}

TEST_CASE("Sweep TimingScope and StoneWall: one block per value, each recorded",
          "[measure_controls]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "sweep",
                                         "TestFile " + dir.file("unused") +
                                             "\n<ap_module>\nModuleName null\nWorkUnits 3\n"
                                             "Sweep TimingScope unit phase\n"
                                             "Sweep StoneWall 0 86400\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &blocks = ran.results.at("modules");
    CHECK(blocks.size() == 4);
    bool ok = blocks.size() == 4;
    const char *scopes[] = {"unit", "unit", "phase", "phase"};
    const double walls[] = {0, 86400, 0, 86400};
    for (size_t i = 0; ok && i < 4; ++i) {
      const auto &t = blocks.at(i).at("tests").at(0);
      CHECK(t.at("timing_scope") == scopes[i]);
      CHECK(t.at("stone_wall_s") == walls[i]);
      CHECK(t.at("reps").at(0).at("phases").at(0).at("stonewalled") == (walls[i] > 0));
      CHECK(t.at("reps").at(0).at("units") == 3);
      ok = ok && t.at("timing_scope") == scopes[i] && t.at("stone_wall_s") == walls[i];
    }
    return ok;
  }));
  // A value the directive refuses is a config error at the Sweep line.
  const auto bad = pio::test::run_config(dir, "badsweep",
                                         "TestFile " + dir.file("unused") +
                                             "\n<ap_module>\nModuleName null\n"
                                             "Sweep TimingScope unit loop\n</ap_module>\n");
  REQUIRE(all_ranks(bad.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK(bad.err.find("badsweep.conf:4") != std::string::npos);
    return bad.err.find("loop") != std::string::npos;
  }));
}

TEST_CASE("TimingScope phase brackets every rank's I/O: a view pattern's writes, counted at the "
          "seam, all inside the aggregate time",
          "[measure_controls]") {
  // The pattern engine sets the next unit's file view (a collective call) in before_work_unit.
  // A rank that finished its unit waits there for a rank still writing; that wait must not leave
  // the phase's time with the hook (it did for the root alone: writes serialised on one inode
  // were timed for the root only, and a view write reported up to 2x IOR's bandwidth).
  constexpr std::int64_t kUnits = 12, kBuffer = 64 * 1024;
  const int np = pio::test::size();
  for (const std::string scope : {"unit", "phase"})
    for (const std::string collective : {"on", "off"}) {
      pio::test::TempDir dir;
      const std::string counts = dir.file("counts.txt");
      const auto ran = pio::test::run_config(
          dir, "counted",
          "TestFile " + dir.file("view.dat") + "\nFileView on\nCollective " + collective +
              "\n<ap_module>\nModuleName test_counted_view\nMode write\nWorkUnits " +
              std::to_string(kUnits) + "\nBufferSize 64K\nSlowRankDelayMs 4\nCountFile " + counts +
              "\nTimingScope " + scope + "\n</ap_module>\n");
      INFO(scope << " Collective " << collective << "\n" << ran.err);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        std::ifstream in(counts);
        double slowest_io = 0;
        int rows = 0;
        int r = 0;
        std::int64_t calls_in = 0, bytes_in = 0, calls_out = 0, bytes_out = 0;
        double seconds_in = 0;
        bool ok = true;
        while (in >> r >> calls_in >> bytes_in >> calls_out >> bytes_out >> seconds_in) {
          INFO("rank " << r);
          // One write per unit through the view, all of the unit's bytes, none outside a unit.
          CHECK(calls_in == kUnits);
          CHECK(bytes_in == kUnits * kBuffer);
          CHECK(calls_out == 0);
          CHECK(bytes_out == 0);
          ok = ok && calls_in == kUnits && bytes_in == kUnits * kBuffer && calls_out == 0 &&
               bytes_out == 0;
          slowest_io = std::max(slowest_io, seconds_in);
          ++rows;
        }
        CHECK(rows == np);
        const auto &rep = first_test(ran).at("reps").at(0);
        const double aggregate = rep.at("aggregate_time_s");
        const double own_max = rep.at("rank_time_s").at("max");
        CHECK(rep.at("bytes") == kUnits * kBuffer * np);
        if (np > 1)
          CHECK(slowest_io >= kUnits * 0.004);
        if (scope == "unit") // the root's clock from its own start to B2: see the timing docs
          return ok && rows == np && rep.at("bytes") == kUnits * kBuffer * np;
        // In phase scope the phase's time is the union of every rank's work-unit intervals,
        // which hold all of its transfer calls, so the slowest rank's time in them is a lower
        // bound.
        CHECK(aggregate >= slowest_io);
        CHECK(aggregate >= own_max);
        return ok && rows == np && rep.at("bytes") == kUnits * kBuffer * np &&
               aggregate >= slowest_io && aggregate >= own_max;
      }));
    }
}
