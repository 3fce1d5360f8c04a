#pragma once
/// What the nodes saw while a test ran (docs/results.md, "Conditions"): the test's ranks per
/// node against the node's usable cores, the share of the test in which tasks waited for a CPU
/// (/proc/pressure/cpu), and pages swapped. Each node's leader reads its counters before and
/// after the test; one gather brings them to rank 0.

#include <mpi.h>

#include "pio/results.hpp"
#include "report/node_conditions.hpp"

namespace pio::harness {

/// Collective over `block` (every rank of the block, taking part in the test or not), with
/// `node` the block's ranks on this node: counts the ranks `taking_part` per node, and has each
/// node's leader (node rank 0, whose `usable_cores` and `start` counts) compare its counters
/// now with `start`. Returns the worst node's conditions on block rank 0.
TestConditions test_conditions(MPI_Comm block, MPI_Comm node, bool taking_part, int usable_cores,
                               const NodeSample &start);

} // namespace pio::harness
