#pragma once
/// The memory per process that sets L_max (b_eff paper §4: L_max = memory per processor / 128).

#include <mpi.h>

#include <cstdint>
#include <string>

namespace pio::b_eff {

/// Memory per process and how it was found.
struct MemoryPerProcess {
  std::int64_t bytes = 0; ///< memory per process
  std::string source;     ///< e.g. "23.4 GiB physical memory / 2 ranks on the node (sysconf)"
};

/// Physical memory of each node (sysconf) divided by the ranks of comm on that node
/// (MPI_Comm_split_type shared), the minimum over nodes. Collective over comm.
MemoryPerProcess detect_memory_per_process(MPI_Comm comm);

} // namespace pio::b_eff
