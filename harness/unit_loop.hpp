#pragma once
/// The timed loop over work units of one phase (docs/timing.md, pio-bench thesis §3.2.1 and Fig. 3.3).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "consensus.hpp"
#include "pio/module.hpp"

namespace pio::harness {

/// What one phase measured.
struct PhaseTiming {
  std::int64_t units = 0;         ///< work units run
  std::int64_t bytes = 0;         ///< bytes this rank moved (summed over ranks by the caller)
  double aggregate_time = 0;      ///< sum over units of end-of-B1 to end-of-B2 (root's clock)
  double own_time = 0;            ///< sum over units of this rank's own unit time (before B2)
  double elapsed = 0;             ///< phase start to its last agreement, untimed parts included
  std::optional<Failure> failure; ///< set on every rank if any rank failed in the phase
};

/// Runs the phase's work units; `sync` holds every rank taking part in the test (all its groups),
/// over which the barriers and agreements run, while the module works on its group's test.comm. Per unit: before_work_unit (untimed); B1 (an
/// agreement on errors, a barrier); start clock; work_unit; note own end; B2 (a one-int
/// allreduce: a barrier that also tells every rank whether any unit failed); stop clock;
/// after_work_unit (untimed). Count-driven phases run phase.work_units units; time-driven
/// phases grow the repetition factor geometrically (1, 2, 4, ...; b_eff_io §5.4), the root
/// deciding after each batch from the phase's elapsed wall time (its clock, read after the
/// batch's last agreement, untimed parts included, so time-driven phases fit a scheduled
/// time) and broadcasting the next batch size.
PhaseTiming run_phase(Module &module, TestContext &test, MPI_Comm sync, int phase_index,
                      bool flush, bool collective);

/// Next batch size of a time-driven phase: doubles, but never past the units the remaining
/// budget is expected to hold (at least 1); 0 when the budget is spent or max_units reached.
std::int64_t next_batch(std::int64_t previous_batch, std::int64_t done, double elapsed,
                        double budget, std::int64_t max_units);

} // namespace pio::harness
