#include "memory.hpp"

#include <unistd.h>

#include <cstdio>

#include "pio/mpi_handles.hpp"

namespace pio::b_eff {

MemoryPerProcess detect_memory_per_process(MPI_Comm comm) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const std::int64_t physical = pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
  MPI_Comm node = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  const std::int64_t mine = physical / on_node;
  MemoryPerProcess m;
  mpi_check(MPI_Allreduce(&mine, &m.bytes, 1, MPI_INT64_T, MPI_MIN, comm), "MPI_Allreduce");
  char text[160];
  std::snprintf(text, sizeof text,
                "%.1f GiB physical memory / %d ranks on the node (sysconf, minimum over nodes); "
                "set MemoryPerProcess or Lmax to override",
                static_cast<double>(physical) / (1024.0 * 1024 * 1024), on_node);
  m.source = text;
  return m;
}

} // namespace pio::b_eff
