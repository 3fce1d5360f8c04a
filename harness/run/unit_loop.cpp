#include "run/unit_loop.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "guard/position.hpp"
#include "pio/mpi_handles.hpp"
#include "run/unit_intervals.hpp"
#include "run/window_clock.hpp"

namespace pio::harness {

std::int64_t next_batch(std::int64_t previous_batch, std::int64_t done, double elapsed,
                        double budget, std::int64_t max_units) {
  if (elapsed >= budget || (max_units > 0 && done >= max_units))
    return 0;
  std::int64_t next = std::max<std::int64_t>(1, previous_batch * 2);
  if (done > 0 && elapsed > 0) {
    const double per_unit = elapsed / static_cast<double>(done);
    const auto fits = static_cast<std::int64_t>(std::ceil((budget - elapsed) / per_unit));
    next = std::min(next, std::max<std::int64_t>(1, fits));
  }
  if (max_units > 0)
    next = std::min(next, max_units - done);
  return next;
}

std::int64_t next_per_unit(std::int64_t done, double elapsed, double budget,
                           std::int64_t max_units) {
  if (max_units > 0 && done >= max_units)
    return 0;
  if (done <= 0)
    return 1;
  // b_eff_io 2.1: conti = (t + t_pat) * (r+1) / r <= Tp, after r calls.
  const double predicted = elapsed * static_cast<double>(done + 1) / static_cast<double>(done);
  return predicted <= budget ? 1 : 0;
}

std::int64_t next_units(EndCheck check, std::int64_t previous_batch, std::int64_t done,
                        double elapsed, double budget, std::int64_t max_units) {
  return check == EndCheck::PerUnit ? next_per_unit(done, elapsed, budget, max_units)
                                    : next_batch(previous_batch, done, elapsed, budget, max_units);
}

std::int64_t stonewall_cap(std::int64_t prev_done, std::int64_t prev_declared,
                           std::int64_t declared) {
  if (prev_declared <= 0 || prev_done >= prev_declared || declared <= 0)
    return 0;
  // ceil(prev_done * declared / prev_declared), in integers (no overflow for sane counts).
  const std::int64_t cap = (prev_done * declared + prev_declared - 1) / prev_declared;
  return std::min(declared, std::max<std::int64_t>(cap, 0));
}

namespace {

/// How a phase ends: by count, or by a budget (the module's, or the block's StoneWall).
struct LoopSetup {
  bool time_driven = false;
  bool stonewalled = false;
  std::int64_t max_units = 0; ///< time-driven: at most this many units (0 = none)
};

LoopSetup loop_setup(const Phase &phase, const LoopControls &c) {
  LoopSetup s;
  if (phase.time_budget_s > 0) {
    s.time_driven = true;
    s.max_units = phase.max_work_units;
  } else if (c.stone_wall_s > 0 && phase.work_units > 0) {
    s.time_driven = s.stonewalled = true;
    s.max_units = c.unit_cap > 0 ? std::min(phase.work_units, c.unit_cap) : phase.work_units;
  }
  return s;
}

/// One call of work_unit, its clock readings and its error ("" = none).
struct UnitWork {
  double start = 0, own_end = 0;
  std::int64_t moved = 0;
  std::string error;
};

/// One call of work_unit between two readings of the phase's clock.
UnitWork work(Module &module, UnitContext &unit, io::LatencySink *latencies,
              const WindowClock &clock) {
  UnitWork w;
  io::Interface *io = unit.test->io;
  if (io)
    io->report_latencies(latencies);
  w.start = clock.now();
  try {
    w.moved = module.work_unit(unit);
    if (w.moved < 0) {
      w.error = "work_unit: returned a negative byte count (" + std::to_string(w.moved) +
                ") (fix: a bug in the module: work_unit returns the bytes it moved, 0 or more)";
      w.moved = 0;
    }
  } catch (...) {
    w.error = describe_current_exception("work_unit");
  }
  w.own_end = clock.now();
  if (io)
    io->report_latencies(nullptr);
  return w;
}

/// What run_phase's two loops share.
struct Loop {
  Module &module;
  const Phase &phase;
  MPI_Comm sync;
  int sync_rank = 0;
  LoopSetup setup;
  const LoopControls &controls;
  UnitContext unit;
  double phase_start = 0;
  PhaseTiming &t;
  /// Unit scope: this rank's window of each unit, from its exit of B1 to its exit of B2.
  std::vector<double> windows;
  /// Unit scope: the sum of windows (this rank's aggregate time).
  double window_sum = 0;
  /// The clock of the phase's unit boundaries (all scopes); the members below count its ticks.
  WindowClock clock;
  /// Whether clock is closed (close_window).
  bool closed = false;
  /// The end of the last unit when it left transfers in flight (UnitContext::in_flight), else -1.
  double in_flight_since = -1;
  /// The end of the last unit of a window on this rank's clock (-1: none yet); the time from
  /// there to the next unit's start was spent between units, in the hooks.
  double last_unit_end = -1;
  /// The time this rank spent between the units of the window so far (the listener's value only).
  double between = 0;
  /// The sum of this rank's own unit times in the window (PhaseTiming::own_time once converted).
  double own = 0;
  /// The listener hears of a unit that ends at or after this time (see tell).
  double tell_at = 0;

  /// The budget now: a module may adjust its own before the first unit (Phase::time_budget_s).
  double budget() const { return setup.stonewalled ? controls.stone_wall_s : phase.time_budget_s; }

  /// The root decides from its clock (read after an agreement, which is a barrier) how many
  /// units come next (0 = stop) and everyone follows (b_eff_io §5.4). Elapsed wall time, not the
  /// timed part alone: a scheduled time covers the whole run, untimed steps included.
  std::int64_t decide(std::int64_t batch) {
    std::int64_t next = 0;
    if (sync_rank == 0)
      next = next_units(phase.end_check, batch, t.units, MPI_Wtime() - phase_start, budget(),
                        setup.max_units);
    MPI_Bcast(&next, 1, MPI_INT64_T, 0, sync);
    return next;
  }

  bool more_by_count() const { return setup.time_driven || t.units < phase.work_units; }

  void before(std::string &error) {
    heartbeat("before_work_unit");
    std::string e = capture("before_work_unit", [&] { module.before_work_unit(unit); });
    if (error.empty() && !e.empty())
      error = std::move(e);
  }
  void after(std::string &error) {
    heartbeat("after_work_unit");
    std::string e = capture("after_work_unit", [&] { module.after_work_unit(unit); });
    if (error.empty() && !e.empty())
      error = std::move(e);
  }

  /// Tells the listener of a unit that ended at `end` (the clock's ticks) with the aggregate
  /// time so far (ticks), at most once per kTellEvery seconds: its progress lines come seconds
  /// apart, and a call per unit read a clock per unit (0.03 us of a 4 KiB read's 1.3 us on tmpfs).
  void tell(double end, double aggregate_ticks) {
    if (!controls.listener || end < tell_at)
      return;
    const double spt = clock.seconds_per_tick_so_far();
    tell_at = spt > 0 ? end + kTellEvery / spt : 0;
    controls.listener->unit_done(*unit.test, unit.phase, t.units, t.bytes, aggregate_ticks * spt);
  }
  static constexpr double kTellEvery = 0.05;

  /// SyncAtEnd: the flush after the last unit, inside the window; "" or the error.
  void sync_at_end(std::string &error) {
    if (!controls.sync_at_end || !unit.test->io)
      return;
    heartbeat("sync");
    std::string e = capture("sync", [&] { unit.test->io->sync(); });
    if (error.empty())
      error = e;
  }

  /// The end of a window (phase scope, wear-out): SyncAtEnd's flush, timed with the window,
  /// then B2 once: a barrier carrying one int ("did anything fail on any rank"), untimed, so the
  /// window ends with the last rank's timed work. False, with t.failure set on every rank, if
  /// anything failed on any rank.
  bool end_window(std::string &error, UnitIntervals &timed) {
    const double flush_start = clock.now();
    sync_at_end(error);
    if (controls.sync_at_end)
      timed.add(flush_start, clock.now());
    heartbeat_wait();
    if (!any_rank(sync, !error.empty()))
      return true;
    t.failure = agree(sync, error);
    return false;
  }

  /// One work unit of a window (phase scope, wear-out): its interval recorded in timed, in the
  /// window's ticks, counted into t, shown to the listener with the window so far less the time
  /// this rank spent between units (an approximation of the phase time, which is known only
  /// after the window), its error kept in error unless one is there already. The unit's two
  /// clock readings are the only ones per unit: the time between units is the gap from the last
  /// unit's end to this one's start.
  void window_unit(std::string &error, UnitIntervals &timed) {
    unit.unit = t.units;
    heartbeat("work_unit");
    unit.in_flight = false;
    const UnitWork w = work(module, unit, controls.latencies, clock);
    if (last_unit_end >= 0)
      between += w.start - last_unit_end;
    last_unit_end = w.own_end;
    // After a unit that left transfers in flight, the hooks are timed too: I/O went on there.
    timed.add(in_flight_since >= 0 ? in_flight_since : w.start, w.own_end);
    in_flight_since = unit.may_overlap && unit.in_flight ? w.own_end : -1;
    t.overlapped = t.overlapped || in_flight_since >= 0;
    own += w.own_end - w.start;
    t.bytes += w.moved;
    ++t.units;
    tell(w.own_end, w.own_end - between);
    if (error.empty() && !w.error.empty())
      error = w.error;
  }
  /// The untimed hooks between two units of a window (after, then the next before).
  void between_units(std::string &error) {
    after(error);
    unit.unit = t.units;
    before(error);
  }
  /// A window's time: the length of the union over the ranks of their timed intervals (work
  /// units, the loop's meetings, the flush), each on its clock from its exit of B1. A hook
  /// holding a collective call (a file view set for the next unit) waits there for ranks still
  /// in their unit; that wait lies inside another rank's interval, so only time in which every
  /// rank was in a hook leaves the window (each rank's window less its own hooks hid writes
  /// serialised behind another rank's, docs/reference/timing.md).
  double window_time(IntervalList timed) const { return union_length(sync, std::move(timed)); }
  /// Ends the clock after its last reading: the ticks become seconds (own_time, unit scope's
  /// windows, and the window's timed intervals when given). own_time sums the same readings in
  /// another order than this rank's timed total, which holds it; rounding could put it an ulp
  /// above, so it is kept within that total.
  void close_window(IntervalList *timed = nullptr) {
    clock.close();
    closed = true;
    const double spt = clock.seconds_per_tick();
    t.own_time = own * spt;
    double mine = 0;
    for (double &w : windows)
      mine += (w *= spt);
    if (timed) {
      for (Interval &iv : *timed) {
        iv.start *= spt;
        iv.end *= spt;
      }
      mine = total_length(*timed);
    }
    if (timed || !windows.empty()) {
      t.aggregate_time = mine; // unit scope: this rank's, until widest_windows
      t.own_time = std::min(t.own_time, mine);
    }
  }

  /// Unit scope: the aggregate time as the sum over units of the largest window over the
  /// ranks. A rank that left B1 before the root (the root descheduled, on an oversubscribed or
  /// loaded node) started its unit earlier than the root's window shows; the largest window
  /// holds every rank's own unit time, so no rank's time exceeds the aggregate
  /// (docs/reference/timing.md).
  void widest_windows();

  void run_unit_scope();
  void run_phase_scope();
  void run_wear_out();
};

void Loop::widest_windows() {
  std::vector<double> widest(windows.size(), 0.0);
  mpi_check(MPI_Allreduce(windows.data(), widest.data(), static_cast<int>(windows.size()),
                          MPI_DOUBLE, MPI_MAX, sync),
            "MPI_Allreduce");
  t.aggregate_time = 0;
  for (double w : widest)
    t.aggregate_time += w;
}

void Loop::run_unit_scope() {
  clock = WindowClock();
  std::int64_t batch = 1, in_batch = 0;
  while (more_by_count()) {
    unit.unit = t.units;
    std::string pending; // an error from before/after_work_unit on this rank
    before(pending);
    // B1: untimed; agreeing on errors is the barrier.
    if ((t.failure = agree(sync, pending)))
      return;

    heartbeat("work_unit");
    const UnitWork w = work(module, unit, controls.latencies, clock);
    heartbeat_wait();
    // B2: a barrier carrying one int, so a failed unit is known everywhere before after_work_unit.
    const bool any = any_rank(sync, !w.error.empty());
    const double end = clock.now();

    window_sum += end - w.start; // this rank's window; the largest is taken at the end
    windows.push_back(end - w.start);
    own += w.own_end - w.start;
    t.bytes += w.moved;
    ++t.units;
    tell(end, window_sum);
    if (any) {
      t.failure = agree(sync, w.error);
      return;
    }
    // Agreed at once (untimed): the next before_work_unit may hold collective calls.
    after(pending);
    if ((t.failure = agree(sync, pending)))
      return;

    if (setup.time_driven && ++in_batch == batch) {
      const std::int64_t next = decide(batch);
      if (next == 0)
        return;
      batch = next;
      in_batch = 0;
    }
  }
}

// Phase scope: no synchronisation between units, so a failing rank cannot tell the others
// before their next unit. It keeps making the loop's calls (hooks and work units, later errors
// ignored) up to the next point where all ranks meet anyway (the end check of a time-driven
// phase, or B2 after the last unit), so that no rank waits in a collective call of the module
// that another rank skipped; there every rank learns of the first failure and the phase stops.
void Loop::run_phase_scope() {
  unit.unit = 0;
  std::string error; // this rank's first error since the last agreement
  before(error);
  // B1, once: an agreement on errors, the barrier that starts the window.
  if ((t.failure = agree(sync, error)))
    return;
  clock = WindowClock();
  UnitIntervals timed(0);
  std::int64_t batch = 1, in_batch = 0;
  for (;;) {
    window_unit(error, timed);

    bool last = !more_by_count(), decided = false;
    if (setup.time_driven && ++in_batch == batch) {
      heartbeat_wait();
      // The end check: an agreement (a barrier that carries errors), then the root's decision.
      if ((t.failure = agree(sync, error)))
        return;
      error.clear();
      const std::int64_t next = decide(batch);
      if (next == 0) {
        last = decided = true;
        if (controls.sync_at_end) { // the flush is timed: an agreement after it ends the window
          sync_at_end(error);
          if ((t.failure = agree(sync, error)))
            return;
        }
      } else {
        batch = next;
        in_batch = 0;
      }
      // The end check follows the unit at once and is timed with it (and the flush after the
      // last), as b_eff_io 2.1's barrier and broadcast are inside its loop time.
      timed.extend(clock.now());
    }
    if (last) {
      if (!decided && !end_window(error, timed))
        return;
      break;
    }
    between_units(error);
  }
  IntervalList mine = timed.release();
  close_window(&mine);
  t.aggregate_time = window_time(std::move(mine));
  // The last unit's after_work_unit, outside the window, agreed at once.
  std::string pending;
  after(pending);
  t.failure = agree(sync, pending);
}

// StoneWallWearOut, IO500's rule (hpc/ior issue 11, IOR's stoneWallingWearOut): the
// units run back to back with no meeting; the root stops at the deadline (or its unit limit)
// and tells the others, each of which stops after its current unit; then the ranks agree on
// the largest count and every rank runs up to it, so a later read finds complete data on every
// rank. The window covers both parts: the bandwidth counts all bytes over the whole time.
// Errors follow the phase-scope rule: a failing rank keeps making the loop's calls up to the
// agreement after the stop; there is no wear-out after a failure.
void Loop::run_wear_out() {
  t.wore_out = true;
  // The stop travels on a communicator of its own: the root posts its broadcast after its
  // units, the others before theirs, and a module's collective calls on sync must not meet it.
  MPI_Comm stop_raw = MPI_COMM_NULL;
  MPI_Comm_dup(sync, &stop_raw);
  const Comm stop_comm(stop_raw);
  unit.unit = 0;
  std::string error;
  before(error);
  if ((t.failure = agree(sync, error)))
    return;
  clock = WindowClock();
  UnitIntervals timed(0);
  // Every rank must make every unit where a unit makes collective calls: collective I/O, and a
  // file view on a shared file (MPI_File_set_view is collective).
  const bool lockstep = unit.collective || (unit.test->module->use_file_view &&
                                            unit.test->spec().file == FileUse::Shared);
  int stop = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  if (!lockstep && sync_rank != 0)
    MPI_Ibcast(&stop, 1, MPI_INT, 0, stop_comm.get(), &req);
  for (;;) {
    window_unit(error, timed);
    const bool at_limit = setup.max_units > 0 && t.units >= setup.max_units;
    if (sync_rank == 0 || lockstep) {
      int now = sync_rank == 0 && (at_limit || MPI_Wtime() - phase_start >= budget()) ? 1 : 0;
      if (lockstep) { // timed with the unit, as IOR's broadcast in its loop
        MPI_Bcast(&now, 1, MPI_INT, 0, sync);
        timed.extend(clock.now());
      }
      if (now)
        break;
    } else {
      int heard = 0;
      MPI_Test(&req, &heard, MPI_STATUS_IGNORE);
      if (heard || at_limit)
        break;
    }
    between_units(error);
  }
  // The stonewall part: the intervals up to this rank's stop.
  const std::size_t at_stop = timed.cut();
  const double stop_time = clock.now();
  if (!lockstep) {
    if (sync_rank == 0) {
      stop = 1;
      MPI_Ibcast(&stop, 1, MPI_INT, 0, stop_comm.get(), &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  heartbeat_wait();
  if ((t.failure = agree(sync, error)))
    return;
  error.clear();
  MPI_Allreduce(&t.units, &t.units_at_stop_max, 1, MPI_INT64_T, MPI_MAX, sync);
  MPI_Allreduce(&t.units, &t.units_at_stop_min, 1, MPI_INT64_T, MPI_MIN, sync);
  timed.add(stop_time, clock.now()); // the stop's meeting, as IOR's allreduce of the counts
  while (t.units < t.units_at_stop_max) {
    between_units(error);
    window_unit(error, timed);
  }
  if (!end_window(error, timed))
    return;
  IntervalList mine = timed.release();
  close_window(&mine);
  IntervalList until_stop(mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(at_stop));
  t.stonewall_time = window_time(std::move(until_stop));
  t.aggregate_time = window_time(std::move(mine));
  t.wear_out_time = t.aggregate_time - t.stonewall_time;
  std::string pending;
  after(pending);
  t.failure = agree(sync, pending);
}

} // namespace

PhaseTiming run_phase(Module &module, TestContext &test, MPI_Comm sync, int phase_index, bool flush,
                      bool collective, const LoopControls &controls) {
  const Phase &phase = test.spec().phases.at(static_cast<size_t>(phase_index));
  PhaseTiming t;
  Loop loop{module,   phase,         sync, 0, loop_setup(phase, controls),
            controls, UnitContext{}, 0,    t, {},
            0,        WindowClock()};
  MPI_Comm_rank(sync, &loop.sync_rank);
  loop.unit.test = &test;
  loop.unit.phase = phase_index;
  loop.unit.units = loop.setup.time_driven && !loop.setup.stonewalled ? -1 : phase.work_units;
  loop.unit.flush = flush;
  loop.unit.collective = collective;
  t.time_driven = loop.setup.time_driven;
  t.stonewalled = loop.setup.stonewalled;
  t.units_limit = loop.setup.max_units;
  t.scope = loop.setup.stonewalled && controls.wear_out ? TimingScope::Phase : controls.scope;
  loop.unit.may_overlap = controls.scope == TimingScope::Phase && !loop.setup.time_driven;

  loop.phase_start = MPI_Wtime();
  if (loop.more_by_count()) {
    if (loop.setup.stonewalled && controls.wear_out)
      loop.run_wear_out();
    else if (controls.scope == TimingScope::Phase)
      loop.run_phase_scope();
    else {
      loop.run_unit_scope();
      loop.close_window();
      if (!t.failure) // agreed: every rank is here
        loop.widest_windows();
    }
    if (!loop.closed) // a failure returned before the window's end
      loop.close_window();
  }
  t.budget = t.time_driven ? loop.budget() : 0;
  t.elapsed = MPI_Wtime() - loop.phase_start;
  return t;
}

} // namespace pio::harness
