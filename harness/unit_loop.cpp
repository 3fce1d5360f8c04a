#include "unit_loop.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "watchdog.hpp"

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

PhaseTiming run_phase(Module &module, TestContext &test, MPI_Comm sync, int phase_index, bool flush,
                      bool collective) {
  const Phase &phase = test.spec().phases.at(static_cast<size_t>(phase_index));
  int sync_rank = 0;
  MPI_Comm_rank(sync, &sync_rank);
  const bool timed_budget = phase.time_budget_s > 0;
  PhaseTiming t;
  UnitContext unit;
  unit.test = &test;
  unit.phase = phase_index;
  unit.units = timed_budget ? -1 : phase.work_units;
  unit.flush = flush;
  unit.collective = collective;

  std::string pending; // an error from before/after_work_unit on this rank
  std::int64_t batch = 1, in_batch = 0;
  const double phase_start = MPI_Wtime();
  // Every return path records the elapsed time.
  auto finished = [&]() -> PhaseTiming & {
    t.elapsed = MPI_Wtime() - phase_start;
    return t;
  };
  while (timed_budget || t.units < phase.work_units) {
    unit.unit = t.units;
    heartbeat("before_work_unit");
    pending = capture("before_work_unit", [&] { module.before_work_unit(unit); });

    // B1: untimed; agreeing on errors is the barrier.
    if ((t.failure = agree(sync, pending)))
      return finished();

    heartbeat("work_unit");
    const double start = MPI_Wtime();
    std::string work_error;
    std::int64_t moved = 0;
    try {
      moved = module.work_unit(unit);
      if (moved < 0)
        work_error = "work_unit: returned a negative byte count (" + std::to_string(moved) +
                     ") (fix: a bug in the module: work_unit returns the bytes it moved, 0 or "
                     "more)";
    } catch (...) {
      work_error = describe_current_exception("work_unit");
    }
    const double own_end = MPI_Wtime();
    heartbeat_wait();
    // B2: a barrier carrying one int, so a failed unit is known everywhere before after_work_unit.
    int failed = work_error.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, sync);
    const double end = MPI_Wtime();

    t.aggregate_time += end - start;
    t.own_time += own_end - start;
    t.bytes += moved;
    ++t.units;
    if (any) {
      t.failure = agree(sync, work_error);
      return finished();
    }
    // Agreed at once (untimed): the next before_work_unit may hold collective calls.
    heartbeat("after_work_unit");
    pending = capture("after_work_unit", [&] { module.after_work_unit(unit); });
    if ((t.failure = agree(sync, pending)))
      return finished();

    if (timed_budget && ++in_batch == batch) {
      // The root alone decides from its clock, read after the agreement that ended the batch
      // (a barrier), and everyone follows (b_eff_io §5.4). Elapsed wall time, not the timed
      // part alone: a scheduled time covers the whole run, untimed steps included.
      std::int64_t next = 0;
      if (sync_rank == 0)
        next = next_batch(batch, t.units, MPI_Wtime() - phase_start, phase.time_budget_s,
                          phase.max_work_units);
      MPI_Bcast(&next, 1, MPI_INT64_T, 0, sync);
      if (next == 0)
        break;
      batch = next;
      in_batch = 0;
    }
  }
  return finished();
}

} // namespace pio::harness
