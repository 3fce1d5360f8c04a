// StoneWallWearOut (docs/reference/timing.md): IO500's stonewall for data phases. The ranks run
// their units with no meeting, rank 0 stops them at the deadline, then every rank completes the
// largest count any rank reached, so a read after the write finds complete data on every rank.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "mpi_test.hpp"
#include "run/unit_loop.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

/// Counts its work units; rank r sleeps delay_ms[r mod size] per unit, so the ranks reach
/// different counts by the deadline. With `collective` every unit makes an allreduce on the
/// test's communicator (collective I/O's situation: every rank must make every unit).
class CountingModule : public pio::Module {
public:
  CountingModule(std::vector<double> delay_ms, bool collective)
      : delay_ms_(std::move(delay_ms)), collective_(collective) {}
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &) override { return {}; }
  void describe_test(pio::TestContext &) override {}
  std::int64_t work_unit(pio::UnitContext &u) override {
    if (u.unit != count)
      throw pio::Error("unit " + std::to_string(u.unit) + " out of order", "");
    ++count;
    const double d = delay_ms_.at(static_cast<size_t>(u.test->rank) % delay_ms_.size());
    if (d > 0)
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(d));
    if (collective_) {
      int one = 1, all = 0;
      MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, u.test->comm);
    }
    return 100;
  }
  std::int64_t count = 0; ///< work units this rank ran

private:
  std::vector<double> delay_ms_;
  bool collective_;
};

/// Runs one stonewalled phase of `declared` units with the wear-out rule on MPI_COMM_WORLD.
pio::harness::PhaseTiming run(CountingModule &m, std::int64_t declared, double wall,
                              bool collective) {
  pio::ModuleContext mc;
  MPI_Comm_rank(MPI_COMM_WORLD, &mc.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mc.size);
  pio::TestSpec spec;
  spec.label = "wear-out";
  spec.phases[0].work_units = declared;
  spec.file = pio::FileUse::None; // no file, no view: units make no collective call of their own
  pio::TestContext tc(mc, spec);
  tc.comm = tc.all = MPI_COMM_WORLD;
  tc.rank = mc.rank;
  tc.size = mc.size;
  pio::harness::LoopControls c;
  c.stone_wall_s = wall;
  c.wear_out = true;
  return pio::harness::run_phase(m, tc, MPI_COMM_WORLD, 0, false, collective, c);
}

} // namespace

TEST_CASE("StoneWallWearOut: ranks stopped at different counts all end with the largest",
          "[wear_out]") {
  const int n = pio::test::size();
  for (const bool collective : {false, true}) {
    // Rank 0 fast, the others 4x slower: at the stop the others are behind rank 0 (independent
    // units), then wear out to its count.
    CountingModule m({1.0, 4.0}, collective);
    const auto t = run(m, 1000000, 0.25, collective);
    INFO("collective " << collective << " rank " << pio::test::rank() << " ran " << m.count
                       << " units; at the stop min " << t.units_at_stop_min << " max "
                       << t.units_at_stop_max << "; stonewall " << t.stonewall_time
                       << " s, wear-out " << t.wear_out_time << " s, window " << t.aggregate_time
                       << " s; elapsed " << t.elapsed << " s, units " << t.units << ", wore out "
                       << t.wore_out << ", failure '" << (t.failure ? t.failure->message : "")
                       << "'");
    bool ok = !t.failure && t.wore_out && m.count == t.units && t.units == t.units_at_stop_max;
    // Every rank ran the same count.
    std::int64_t lo = 0, hi = 0;
    MPI_Allreduce(&m.count, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&m.count, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    ok = ok && lo == hi && t.units_at_stop_min >= 1;
    // The stop came at the deadline on the root's clock of the phase's elapsed time; the window
    // (its part up to the stop, and the wear-out) lies inside it. Another rank starts its clock
    // when it leaves the opening barrier, which may be after the root: its elapsed time may
    // fall short of the deadline (0.249 s was seen at 2 ranks in a loaded CI run).
    ok = ok && t.stonewall_time > 0 && t.stonewall_time <= t.elapsed && t.wear_out_time >= 0 &&
         t.bytes == 100 * m.count;
    if (pio::test::rank() == 0)
      ok =
          ok && t.elapsed >= 0.25 && t.aggregate_time == Approx(t.stonewall_time + t.wear_out_time);
    if (collective) // lockstep: every rank stops after the same unit, nothing to wear out
      ok = ok && t.units_at_stop_min == t.units_at_stop_max;
    else if (n > 1) // the slow ranks were behind and caught up after the stop
      ok = ok && t.units_at_stop_min < t.units_at_stop_max && t.wear_out_time > 0.01;
    CHECK(ok);
    REQUIRE(all_ranks(ok));
  }
}

TEST_CASE("StoneWallWearOut: a unit limit reached before the deadline ends every rank there",
          "[wear_out]") {
  CountingModule m({0.0, 1.0}, false);
  const auto t = run(m, 40, 86400, false);
  const bool ok = !t.failure && m.count == 40 && t.units == 40 && t.units_at_stop_max == 40;
  CHECK(ok);
  REQUIRE(all_ranks(ok));
}

TEST_CASE("StoneWallWearOut through a config: the phase records both times and the counts",
          "[wear_out]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "wearout",
      "TestFile " + dir.file("data") +
          "\n<ap_module>\nModuleName \"Simple Strided (write)\"\nBufferSizes 4K\nWorkUnits "
          "100000\nVerify on\nStoneWall 0.3\nStoneWallWearOut on\n</ap_module>\n"
          "<ap_module>\nModuleName \"Simple Strided (write)\"\nLabel batched\nBufferSizes 4K\n"
          "WorkUnits 8\nStoneWall 0.3\n</ap_module>\n");
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &p =
        ran.results.at("modules").at(0).at("tests").at(0).at("reps").at(0).at("phases").at(0);
    INFO(p.dump());
    CHECK(p.at("end_check") == "wear_out");
    CHECK(p.at("timing_scope") == "phase");
    CHECK(p.at("units") == p.at("units_at_stop").at("max"));
    CHECK(p.at("units_at_stop").at("min") <= p.at("units_at_stop").at("max"));
    CHECK(p.at("bytes") == p.at("units").get<std::int64_t>() * 4096 * pio::test::size());
    // The deadline is on the phase's elapsed time (Verify's untimed hooks included); the two
    // recorded times are the timed window's parts.
    CHECK(p.at("elapsed_time_s").get<double>() >= 0.3);
    CHECK(p.at("stonewall_time_s").get<double>() > 0);
    CHECK(p.at("aggregate_time_s").get<double>() ==
          Approx(p.at("stonewall_time_s").get<double>() + p.at("wear_out_time_s").get<double>()));
    // Without StoneWallWearOut the batched rule stays, with no wear-out fields.
    const auto &q =
        ran.results.at("modules").at(1).at("tests").at(0).at("reps").at(0).at("phases").at(0);
    CHECK(q.at("end_check") == "batched");
    CHECK(!q.contains("units_at_stop"));
    return p.at("end_check") == "wear_out" && p.at("units") == p.at("units_at_stop").at("max");
  }));
}

TEST_CASE("SyncAtEnd: a timed flush after the last unit in phase scope; refused in unit scope",
          "[wear_out]") {
  pio::test::TempDir dir;
  const std::string write = "TestFile " + dir.file("data") +
                            "\n<ap_module>\nModuleName \"Segmented (write)\"\nBufferSizes "
                            "64K\nWorkUnits 16\nVerify on\nSyncAtEnd on\n";
  for (const std::string extra : {"TimingScope phase\n", "StoneWall 60\nStoneWallWearOut on\n"}) {
    const auto ok = pio::test::run_config(dir, extra.substr(0, 6) == "Timing" ? "phase" : "wear",
                                          write + extra + "</ap_module>\n");
    INFO(extra << ok.err << ok.out);
    REQUIRE(all_ranks(ok.exit_code == 0));
    REQUIRE(on_root([&] {
      const auto &p =
          ok.results.at("modules").at(0).at("tests").at(0).at("reps").at(0).at("phases").at(0);
      CHECK(p.at("units") == 16);
      return p.at("units") == 16;
    }));
  }
  const auto bad = pio::test::run_config(dir, "unit", write + "</ap_module>\n");
  REQUIRE(all_ranks(bad.exit_code != 0));
  REQUIRE(on_root([&] {
    const std::string all = bad.out + bad.err + bad.results.dump();
    CHECK(all.find("SyncAtEnd needs one timed window per phase") != std::string::npos);
    return all.find("SyncAtEnd needs one timed window per phase") != std::string::npos;
  }));
}
