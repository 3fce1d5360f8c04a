// TimingScope phase and StoneWallWearOut time a phase as the union of the ranks' work units
// (docs/reference/timing.md): ranks that take turns, each waiting for the others in a collective
// hook, are timed for all the turns, not for their own alone.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "mpi_test.hpp"
#include "run/unit_loop.hpp"

using pio::test::all_ranks;

namespace {

constexpr std::int64_t kUnits = 8;
constexpr double kTurn = 0.020; // seconds a rank works in its turn

/// In unit k rank (k mod size) works kTurn (a sleep), the others return at once; after every
/// unit a barrier on the test's communicator, as a collective file view set in the hook makes
/// each rank wait for the one still writing. With hook_sleep every rank also sleeps that long
/// in after_work_unit (time no rank is in a unit).
class TurnModule : public pio::Module {
public:
  explicit TurnModule(double hook_sleep = 0) : hook_sleep_(hook_sleep) {}
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &) override { return {}; }
  void describe_test(pio::TestContext &) override {}
  std::int64_t work_unit(pio::UnitContext &u) override {
    if (u.unit % u.test->size == u.test->rank)
      std::this_thread::sleep_for(std::chrono::duration<double>(kTurn));
    return 1;
  }
  void after_work_unit(pio::UnitContext &u) override {
    if (hook_sleep_ > 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(hook_sleep_));
    MPI_Barrier(u.test->comm);
  }

private:
  double hook_sleep_;
};

/// Runs one phase of `units` units (or, with budget > 0, time-driven) on MPI_COMM_WORLD.
pio::harness::PhaseTiming run(pio::Module &m, std::int64_t units, pio::harness::LoopControls c,
                              double budget = 0) {
  pio::ModuleContext mc;
  MPI_Comm_rank(MPI_COMM_WORLD, &mc.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mc.size);
  pio::TestSpec spec;
  spec.label = "turns";
  spec.phases[0].work_units = units;
  spec.phases[0].time_budget_s = budget;
  spec.file = pio::FileUse::None;
  pio::TestContext tc(mc, spec);
  tc.comm = tc.all = MPI_COMM_WORLD;
  tc.rank = mc.rank;
  tc.size = mc.size;
  return pio::harness::run_phase(m, tc, MPI_COMM_WORLD, 0, false, false, c);
}

/// The phase time covers every turn (>= 0.9 of them, sleeps never end early) and no more than
/// the phase's wall time on this rank (plus the ranks' skew leaving B1).
bool covers_the_turns(const pio::harness::PhaseTiming &t, double time) {
  const double turns = static_cast<double>(t.units) * kTurn;
  INFO("rank " << pio::test::rank() << " of " << pio::test::size() << ": " << t.units
               << " units, phase time " << time << " s, turns " << turns << " s, elapsed "
               << t.elapsed << " s, own " << t.own_time << " s");
  const bool ok = !t.failure && time >= 0.9 * turns && time <= t.elapsed + 0.02;
  CHECK(ok);
  return ok;
}

} // namespace

TEST_CASE("TimingScope phase: ranks taking turns behind a collective hook are timed for every "
          "turn",
          "[phase_union]") {
  TurnModule m;
  pio::harness::LoopControls c;
  c.scope = pio::TimingScope::Phase;
  const auto t = run(m, kUnits, c);
  const bool ok = t.units == kUnits && covers_the_turns(t, t.aggregate_time);
  REQUIRE(all_ranks(ok));
}

TEST_CASE("TimingScope phase, time-driven: every turn of every batch is timed", "[phase_union]") {
  TurnModule m;
  pio::harness::LoopControls c;
  c.scope = pio::TimingScope::Phase;
  const auto t = run(m, 0, c, 0.15);
  const bool ok = t.time_driven && t.units >= 2 && covers_the_turns(t, t.aggregate_time);
  REQUIRE(all_ranks(ok));
}

TEST_CASE("TimingScope phase: time every rank spends in hooks is left out", "[phase_union]") {
  TurnModule m(kTurn); // every rank sleeps a turn in after_work_unit, then the barrier
  pio::harness::LoopControls c;
  c.scope = pio::TimingScope::Phase;
  const auto t = run(m, kUnits, c);
  // The turns are timed; the hooks' sleeps (kUnits - 1 of them in the window) are not.
  const bool ok = t.units == kUnits && covers_the_turns(t, t.aggregate_time) &&
                  t.aggregate_time <= t.elapsed - 0.9 * (kUnits - 1) * kTurn;
  CHECK(ok);
  REQUIRE(all_ranks(ok));
}

TEST_CASE("StoneWallWearOut: the window and its stonewall part cover every rank's turns",
          "[phase_union]") {
  TurnModule m;
  pio::harness::LoopControls c;
  c.stone_wall_s = 86400; // stopped by its unit limit, the declared units
  c.wear_out = true;
  const auto t = run(m, kUnits, c);
  const bool ok = t.wore_out && t.units == kUnits && t.units_at_stop_max == kUnits &&
                  covers_the_turns(t, t.aggregate_time) && covers_the_turns(t, t.stonewall_time) &&
                  t.wear_out_time == Approx(t.aggregate_time - t.stonewall_time);
  REQUIRE(all_ranks(ok));
}
