#pragma once
/// What the nodes saw while a test ran (docs/reference/results.md, "Conditions"): the test's ranks
/// per node against the node's usable cores, the largest share of the test's recorded phases one
/// of its ranks waited for a CPU (its run-queue delay), the share of the test in which any task
/// on a node waited (/proc/pressure/cpu), and pages swapped. Each node's leader reads the node's
/// counters before and after the test; one gather brings them and the ranks' shares to rank 0.

#include <mpi.h>

#include "pio/results.hpp"
#include "report/node_conditions.hpp"

namespace pio::harness {

/// A rank's run-queue wait over the phases it ran for the record (their unit loops: not the
/// untimed preparation, page-cache checks or warm-ups), which heavy_load judges.
class PhaseWait {
public:
  /// Before a recorded phase.
  void start();
  /// After it.
  void stop();
  /// The share of those phases' wall time this rank was runnable but had no CPU (-1: not
  /// measured).
  double share() const;

private:
  double delay0_us_ = -1, wall0_s_ = 0;
  double waited_us_ = 0, wall_us_ = 0;
};

/// Collective over `block` (every rank of the block, taking part in the test or not), with
/// `node` the block's ranks on this node: counts the ranks `taking_part` per node and gathers
/// their `own_wait_share` (the share of the test's recorded phases this rank waited for a CPU,
/// PhaseWait; -1: unknown), and has each node's leader (node rank 0, whose `usable_cores` and
/// `start` count) compare its node's counters now with `start`. Returns the worst node's and
/// rank's conditions on block rank 0.
TestConditions test_conditions(MPI_Comm block, MPI_Comm node, bool taking_part, int usable_cores,
                               const NodeSample &start, double own_wait_share);

} // namespace pio::harness
