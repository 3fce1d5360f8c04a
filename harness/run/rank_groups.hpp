#pragma once
/// The communicators of one test from its RankGroups: every rank taking part (for the harness's
/// barriers, agreements and statistics) and this rank's group (for the module).

#include <mpi.h>

#include <string>

#include "pio/mpi_handles.hpp"
#include "pio/spec.hpp"

namespace pio::harness {

/// This rank's communicators in one test. Ranks that do not take part get MPI_COMM_NULL.
struct GroupComms {
  MPI_Comm all = MPI_COMM_NULL;   ///< every rank of the test (rank 0 of the run is its rank 0)
  MPI_Comm group = MPI_COMM_NULL; ///< this rank's group
  int group_index = 0;            ///< 0 .. groups-1 (groups numbered by increasing color)
  int groups = 1;                 ///< groups running at once
  int procs = 0;                  ///< ranks taking part
  Comm owned_all, owned_group;    ///< the split communicators, when not the run's own
};

/// What is wrong with `g` for a run of `size` ranks ("" if nothing): a rank past the run's size,
/// rank 0 idle, or no rank at all. The message says how to fix it.
std::string check_groups(const RankGroups &g, int size);

/// ReadShift (docs/reference/timing.md, "The page cache"): collective over comm, a communicator of
/// the same ranks in which rank r of comm is rank (r + shift) mod size, so that a module reading
/// "its" part reads what that rank wrote earlier. An empty Comm when the shift is a multiple of
/// the size (nothing moves): use comm itself.
Comm shifted_ranks(MPI_Comm comm, int shift);

/// Collective over world: splits the test's communicators (none when every rank is in one
/// group). `g` must have passed check_groups.
GroupComms make_group_comms(MPI_Comm world, const RankGroups &g);

} // namespace pio::harness
