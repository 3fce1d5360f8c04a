#pragma once
/// The timed loop over work units of one phase (docs/reference/timing.md, pio-bench thesis §3.2.1
/// and Fig. 3.3).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pio/module.hpp"
#include "pio/results.hpp"
#include "report/unit_listener.hpp"
#include "run/consensus.hpp"

namespace pio::harness {

/// The block's measurement controls for one phase.
struct LoopControls {
  TimingScope scope = TimingScope::Unit; ///< TimingScope
  /// StoneWall: a count-driven phase runs until this many seconds of wall time (0 = off), at
  /// most its declared units; a phase that is already time-driven keeps its own budget.
  double stone_wall_s = 0;
  /// Under StoneWall: at most this many units (0 = none), from the phase before (stonewall_cap).
  std::int64_t unit_cap = 0;
  /// StoneWallWearOut: a stonewalled phase follows IO500's rule (run_phase), timed as one window.
  bool wear_out = false;
  /// SyncAtEnd: phase scope and wear-out flush the file (Interface::sync) once after the last
  /// unit, before B2, so the flush is timed (IOR -e).
  bool sync_at_end = false;
  /// Told of a unit's end at most every 50 ms of the rank's clock (rank 0's live progress);
  /// nullptr: nobody listens.
  UnitListener *listener = nullptr;
  /// Where the test's Interface reports the latencies of the operations each work unit starts
  /// (Interface::report_latencies); nullptr: none recorded. It must outlive the open file.
  io::LatencySink *latencies = nullptr;
};

/// What one phase measured.
struct PhaseTiming {
  std::int64_t units = 0;    ///< work units run
  std::int64_t bytes = 0;    ///< bytes this rank moved (summed over ranks by the caller)
  double aggregate_time = 0; ///< unit scope: sum over units of the largest over the ranks of
                             ///< each rank's end-of-B1 to end-of-B2; phase
                             ///< scope: the length of the union over the ranks of their timed
                             ///< intervals (units, meetings, flush) from the end of B1
  double own_time = 0;       ///< sum over units of this rank's own unit time (before B2)
  double elapsed = 0;        ///< phase start to its last agreement, untimed parts included
  bool time_driven = false;  ///< ran until a budget (the module's or StoneWall's)
  bool stonewalled = false;  ///< made time-driven by StoneWall
  TimingScope scope = TimingScope::Unit; ///< the scope it was timed in
  double budget = 0;                     ///< the budget when time-driven
  std::int64_t units_limit = 0;          ///< time-driven: the most units it could run (0 = none)
  std::optional<Failure> failure;        ///< set on every rank if any rank failed in the phase
  /// StoneWallWearOut (IO500's rule): the ranks stopped on the root's decision with
  /// their own counts, then every rank ran up to the largest (wear-out).
  bool wore_out = false;
  std::int64_t units_at_stop_min = 0; ///< wore_out: fewest units any rank had run at the stop
  std::int64_t units_at_stop_max = 0; ///< wore_out: most units (what every rank completed)
  double stonewall_time = 0; ///< wore_out: the union of the ranks' timed intervals up to each
                             ///< rank's stop
  double wear_out_time = 0;  ///< wore_out: the rest of the window (aggregate - stonewall)
  /// A unit left transfers in flight (UnitContext::in_flight): the hooks after it were timed.
  bool overlapped = false;
  /// The phase's per-operation latencies over the test's ranks (the caller's reduction; root).
  std::optional<OpLatencies> latency;
};

/// Runs the phase's work units; `sync` holds every rank taking part in the test (all its groups),
/// over which the barriers and agreements run, while the module works on its group's test.comm.
/// Unit scope, per unit: before_work_unit (untimed); B1 (an agreement on errors, a barrier);
/// start clock; work_unit; note own end; B2 (a one-int allreduce: a barrier that also tells every
/// rank whether any unit failed); stop clock; after_work_unit (untimed). Phase scope: B1 once,
/// the units back to back, B2 once, timed as the union over the ranks of their units' intervals
/// (unit_intervals.hpp); errors are agreed at B2 and at the end checks of a time-driven phase
/// (docs/reference/timing.md). Count-driven phases run phase.work_units units;
/// time-driven phases (the module's budget or the block's StoneWall) end by the phase's
/// end_check, the root deciding from the phase's elapsed wall time (its clock, read after an
/// agreement, untimed parts included, so time-driven phases fit a scheduled time) and
/// broadcasting its decision. StoneWall with controls.wear_out follows IO500's rule instead (no
/// meeting between units): the root checks its clock after each unit and broadcasts the stop (a
/// non-blocking broadcast the others test after each unit; collective I/O: a broadcast after
/// every unit, as IOR does), then every rank runs up to the largest count any rank reached.
/// A count-driven phase in phase scope without StoneWall lets its units overlap
/// (UnitContext::may_overlap): after a unit that returns with transfers in flight the hooks up
/// to the next unit are timed too (docs/reference/timing.md, "Queue depth").
PhaseTiming run_phase(Module &module, TestContext &test, MPI_Comm sync, int phase_index, bool flush,
                      bool collective, const LoopControls &controls = {});

/// Next batch size of a time-driven phase: doubles, but never past the units the remaining
/// budget is expected to hold (at least 1); 0 when the budget is spent or max_units reached.
std::int64_t next_batch(std::int64_t previous_batch, std::int64_t done, double elapsed,
                        double budget, std::int64_t max_units);

/// b_eff_io 2.1's end rule, after every unit: 1 (one more unit) while the elapsed time predicted
/// after it, elapsed * (done + 1) / done, stays within the budget and max_units (0 = none) is not
/// reached, else 0. With done == 0 it is 1 (the first unit always runs).
std::int64_t next_per_unit(std::int64_t done, double elapsed, double budget,
                           std::int64_t max_units);

/// The units a time-driven phase runs next by its end check (next_batch or next_per_unit).
std::int64_t next_units(EndCheck check, std::int64_t previous_batch, std::int64_t done,
                        double elapsed, double budget, std::int64_t max_units);

/// StoneWall across the phases of a test: a phase after a stonewalled phase that stopped early
/// runs at most the same fraction of its declared units, rounded up (a read of what the write
/// before it wrote reads no further). prev_done of prev_declared units done; 0 = no cap.
std::int64_t stonewall_cap(std::int64_t prev_done, std::int64_t prev_declared,
                           std::int64_t declared);

} // namespace pio::harness
