#pragma once
/// The hosts of a run (docs/results.md, provenance): one record per node (MPI's shared-memory
/// domain, named by MPI_Get_processor_name) with the ranks placed on it, its memory, CPUs,
/// kernel and OS, each read on the node itself. Gathered through one leader per node, so rank 0
/// receives one record per node, not one per rank.

#include <mpi.h>

#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// Every node of comm with its ranks (ranks of comm) and what it has. Collective on comm; the
/// records are returned on comm's rank 0 (empty elsewhere), ordered by their lowest rank.
std::vector<HostInfo> survey_hosts(MPI_Comm comm);

} // namespace pio::harness
