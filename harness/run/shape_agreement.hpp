#pragma once
/// The shape of a test agreed across its ranks before its first work unit (docs/reliability.md):
/// every rank runs the unit loop in step with the others, so a rank that declares another
/// number of phases or work units (a module bug on one rank) would leave the others waiting in
/// a barrier until StepTimeout. Checked instead, with one message naming the ranks and counts.

#include <mpi.h>

#include <optional>

#include "pio/spec.hpp"
#include "run/consensus.hpp"

namespace pio::harness {

/// Collective on comm (the test's ranks, which run its unit loop together): compares the
/// number of phases and, for each phase, whether it is time-driven and else its work units.
/// Returns the same on every rank: nothing if all agree, else a failure naming the first rank
/// that differs from rank 0, the ranks of each value and the fix.
std::optional<Failure> disagreement_on_shape(MPI_Comm comm, const TestSpec &spec);

} // namespace pio::harness
