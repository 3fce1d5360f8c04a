#pragma once
/// The hosts of a run (docs/results.md, provenance): one record per node (MPI's shared-memory
/// domain, named by MPI_Get_processor_name) with the ranks placed on it, its memory, CPUs,
/// kernel and OS, each read on the node itself. Gathered through one leader per node, so rank 0
/// receives one record per node, not one per rank.

#include <mpi.h>

#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// This rank's place on its node, as the survey found it.
struct NodePlace {
  bool leader = false;       ///< the node's lowest rank, which reads the node's counters
  NodeConditions conditions; ///< the node's conditions (complete on the leader)
};

/// Every node of comm with its ranks (ranks of comm), what it has and its conditions
/// (node_conditions.hpp). Collective on comm; the records are returned on comm's rank 0 (empty
/// elsewhere), ordered by their lowest rank. `place`, if given, receives this rank's place.
std::vector<HostInfo> survey_hosts(MPI_Comm comm, NodePlace *place = nullptr);

} // namespace pio::harness
