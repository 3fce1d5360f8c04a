#pragma once
/// What the nodes saw while a test ran (docs/reference/results.md, "Conditions"): the test's ranks
/// per node against the node's usable cores, the largest share of the test one of its ranks
/// waited for a CPU (its run-queue delay), the share in which any task on a node waited
/// (/proc/pressure/cpu), and pages swapped. Every rank reads its own delay, each node's leader the
/// node's counters, before and after the test; one gather brings them to rank 0.

#include <mpi.h>

#include "pio/results.hpp"
#include "report/node_conditions.hpp"

namespace pio::harness {

/// Collective over `block` (every rank of the block, taking part in the test or not), with
/// `node` the block's ranks on this node: counts the ranks `taking_part` per node, has each of
/// them compare its run-queue delay now with its `start`, and each node's leader (node rank 0,
/// whose `usable_cores` counts) its node's counters. Returns the worst node's and rank's
/// conditions on block rank 0.
TestConditions test_conditions(MPI_Comm block, MPI_Comm node, bool taking_part, int usable_cores,
                               const NodeSample &start);

} // namespace pio::harness
