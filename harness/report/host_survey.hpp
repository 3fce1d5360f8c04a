#pragma once
/// The hosts of a run (docs/reference/results.md, provenance): one record per node (MPI's
/// shared-memory domain, named by MPI_Get_processor_name) with the ranks placed on it, its memory,
/// CPUs, kernel, OS and the file system of the test file's directory, each read on the node itself
/// (each node may mount it differently). Gathered through one leader per node, so rank 0
/// receives one record per node, not one per rank.

#include <mpi.h>

#include <string>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// This rank's place on its node, as the survey found it.
struct NodePlace {
  bool leader = false;       ///< the node's lowest rank, which reads the node's counters
  NodeConditions conditions; ///< the node's conditions (complete on the leader)
};

/// Every node of comm with its ranks (ranks of comm), what it has, its conditions
/// (node_conditions.hpp) and the file system of test_file's directory. Collective on comm; the
/// records are returned on comm's rank 0 (empty elsewhere), ordered by their lowest rank.
/// `place`, if given, receives this rank's place.
std::vector<HostInfo> survey_hosts(MPI_Comm comm, const std::string &test_file,
                                   NodePlace *place = nullptr);

} // namespace pio::harness
