#pragma once
/// The hosts of a run (docs/results.md, provenance): one record per node (MPI's shared-memory
/// domain, named by MPI_Get_processor_name) with the ranks placed on it, its memory, CPUs,
/// kernel, OS and the file system of the test file's directory, each read on the node itself
/// (each node may mount it differently). Gathered through one leader per node, so rank 0
/// receives one record per node, not one per rank.

#include <mpi.h>

#include <string>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// Every node of comm with its ranks (ranks of comm) and what it has, with the file system of
/// test_file's directory. Collective on comm; the records are returned on comm's rank 0 (empty
/// elsewhere), ordered by their lowest rank.
std::vector<HostInfo> survey_hosts(MPI_Comm comm, const std::string &test_file);

} // namespace pio::harness
