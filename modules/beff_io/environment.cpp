// The b_eff_io environment probe.
#include "environment.hpp"

#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "pio/io/backend.hpp"
#include "pio/memory_fs.hpp"
#include "pio/mpi_handles.hpp"
#include "plan.hpp"

namespace pio::beff_io {
namespace {

/// Memory of this node in bytes (sysconf, else /proc/meminfo), 0 if unknown.
std::int64_t detect_node_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0)
    return static_cast<std::int64_t>(pages) * page;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::int64_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemTotal:")
      return kb * 1024;
    in.ignore(1 << 10, '\n');
  }
  return 0;
}

/// Memory per node: MemoryPerNode, else detected (minimum over nodes).
void find_memory(const ModuleContext &ctx, Environment &env) {
  if (ctx.settings.has("MemoryPerNode")) {
    env.node_memory = ctx.settings.size("MemoryPerNode");
    env.memory_source = "MemoryPerNode directive";
    return;
  }
  env.node_memory = detect_node_memory();
  MPI_Allreduce(MPI_IN_PLACE, &env.node_memory, 1, MPI_INT64_T, MPI_MIN, ctx.comm);
  env.memory_source = "detected (sysconf _SC_PHYS_PAGES, minimum over nodes)";
  if (env.node_memory <= 0)
    throw Error("cannot detect the memory per node", "set MemoryPerNode, e.g. MemoryPerNode 64G");
}

/// Processes per node within each partition (the first `procs` ranks), on its fullest node.
void count_per_node(const ModuleContext &ctx, const std::vector<int> &partitions,
                    Environment &env) {
  MPI_Comm node_comm = MPI_COMM_NULL;
  mpi_check(
      MPI_Comm_split_type(ctx.comm, MPI_COMM_TYPE_SHARED, ctx.rank, MPI_INFO_NULL, &node_comm),
      "MPI_Comm_split_type");
  Comm node(node_comm);
  int node_size = 1;
  MPI_Comm_size(node.get(), &node_size);
  std::vector<int> node_ranks(static_cast<size_t>(node_size));
  MPI_Allgather(&ctx.rank, 1, MPI_INT, node_ranks.data(), 1, MPI_INT, node.get());
  for (int procs : partitions) {
    int on_node = static_cast<int>(
        std::count_if(node_ranks.begin(), node_ranks.end(), [&](int r) { return r < procs; }));
    MPI_Allreduce(MPI_IN_PLACE, &on_node, 1, MPI_INT, MPI_MAX, ctx.comm);
    env.processes_per_node[procs] = std::max(on_node, 1);
  }
}

/// Shared file pointers (type 1): probed once on a scratch file the module claims from the
/// harness (which deletes it after cleanup_module); fall back to individual pointers if they
/// fail (Euro-Par b_eff_io paper §5).
void probe_shared_pointers(const ModuleContext &ctx, bool type1, Environment &env) {
  const std::string mode = ctx.settings.text("SharedPointers");
  env.shared_pointers = mode != "off";
  env.positioning = mode == "off"
                        ? "individual file pointers (fallback forced by SharedPointers off)"
                        : "shared file pointers (MPI_File_write_ordered / read_ordered)";
  if (!ctx.capabilities.has(io::Capability::SharedPointers)) {
    if (mode == "on" && type1)
      throw DirectiveError("SharedPointers",
                           "SharedPointers on, but Interface " + ctx.interface +
                               " has no shared file pointers (capability shared_pointers)",
                           "write SharedPointers auto (type 1 then uses its fallback) or choose "
                           "an Interface with shared_pointers");
    env.shared_pointers = false;
    env.positioning = "individual file pointers (fallback: Interface " + ctx.interface +
                      " has no shared file pointers)";
    return;
  }
  if (!type1 || mode == "off" || ctx.validate_only) // the pre-flight check makes no file
    return;
  const std::string probe = ctx.test_file + ".beff_io-probe";
  // One shared file: rank 0 claims it (a claim on every rank would race with the claim's own
  // bookkeeping on rank 0) and tells the others before the collective open, so no rank opens
  // alone and all fail alike.
  ctx.claim_file_on_rank0(ctx.comm, ctx.rank, probe,
                          "remove the stale shared-pointer probe file, or set SharedPointers off");
  std::unique_ptr<io::OpenFile> fh;
  try {
    fh = ctx.backend->open(ctx.comm, probe, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
  } catch (const Error &e) {
    throw Error(std::string(e.what()) + " (opening the shared file pointer probe)", e.hint());
  }
  char byte = 0;
  io::Transfer one;
  one.positioning = io::Positioning::SharedPointer;
  one.coordination = io::Coordination::Collective; // MPI_File_write_ordered
  one.buffer = &byte;
  one.count = 1;
  int bad = 0;
  try {
    fh->io().start(one);
    fh->io().seek_shared(0);
  } catch (const MpiError &) {
    bad = 1;
  }
  try {
    fh->close();
  } catch (const Error &) { // as a failed close of the probe always was: not its business
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, ctx.comm);
  if (!bad)
    return;
  if (mode == "on")
    throw Error("shared file pointers do not work on " + probe +
                    " (MPI_File_write_ordered or MPI_File_seek_shared failed)",
                "use SharedPointers auto to fall back to individual file pointers");
  env.shared_pointers = false;
  env.positioning = "individual file pointers (fallback: shared file pointers failed on this "
                    "file system)";
}

/// MaxFileSize: a safety cap on all pattern types' files together (default_max_file_size).
void find_max_file_size(const ModuleContext &ctx, Environment &env) {
  if (ctx.settings.has("MaxFileSize")) {
    env.max_file_size = ctx.settings.size("MaxFileSize");
    return;
  }
  std::int64_t found[2] = {0, 0}; // free bytes, memory-backed
  if (ctx.rank == 0) {
    found[0] = free_space_of(ctx.test_file);
    found[1] = memory_file_system_at(ctx.test_file) ? 1 : 0;
  }
  MPI_Bcast(found, 2, MPI_INT64_T, 0, ctx.comm);
  env.max_file_size = default_max_file_size(found[0], found[1] != 0);
}

} // namespace

std::int64_t free_space_of(const std::string &path) {
  struct statvfs st;
  if (::statvfs(directory_of(path).c_str(), &st) != 0)
    return -1;
  return static_cast<std::int64_t>(st.f_bavail) * static_cast<std::int64_t>(st.f_frsize);
}

Environment probe_environment(const ModuleContext &ctx, const std::vector<int> &partitions,
                              bool type1) {
  Environment env;
  find_memory(ctx, env);
  count_per_node(ctx, partitions, env);
  probe_shared_pointers(ctx, type1, env);
  find_max_file_size(ctx, env);
  return env;
}

} // namespace pio::beff_io
