#pragma once
/// From each rank's raw unit times to the typed figures of a repetition (docs/reference/timing.md;
/// IMB 3.2 User Guide §5.2.8, §6 for the per-operation times): bandwidth from the root's aggregate
/// time, min / mean / max over ranks of each rank's own time, and per group the IMB t_min / t_avg /
/// t_max per operation and throughput for tests with CommSemantics.

#include <mpi.h>

#include <optional>
#include <vector>

#include "pio/results.hpp"
#include "run/unit_loop.hpp"

namespace pio::harness {

/// Where this rank stands in a test: its group and how many groups run at once.
struct GroupPlace {
  int group = 0;
  int groups = 1;
};

/// Collective over `all` (every rank of the test): reduces one repetition's phase timings to
/// its root (rank 0 of `all`), which gets the full Repetition; other ranks get totals only.
Repetition reduce_repetition(MPI_Comm all, const GroupPlace &place,
                             const std::vector<PhaseTiming> &phases, const TestSpec &spec,
                             int rep, double open_time_s, double close_time_s);

/// IMB's per-operation times of each group from every rank's own time (seconds) for `units`
/// work units; own[i] belongs to group group_of[i].
std::vector<OpTimes> op_times(const std::vector<double> &own, const std::vector<int> &group_of,
                              int groups, std::int64_t units, const CommSemantics &comm);

/// The worst group (largest t_max), as IMB reports with -multi.
std::optional<OpTimes> worst_group(const std::vector<OpTimes> &groups);

/// Statistics over a test's repetitions.
TestSummary summarize_reps(const std::vector<Repetition> &reps);

} // namespace pio::harness
