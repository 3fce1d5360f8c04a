#pragma once
/// The page cache around a phase (docs/reference/timing.md, "The page cache"): before a read phase,
/// how much of the test files each node will read is resident in its page cache, and CacheMode
/// drop's flush and eviction before it; after a write phase, how much of what it wrote is still
/// dirty there, not yet on storage. Measured through one leader per node (cachestat(2) where the
/// kernel has it, mincore(2) over a mapping otherwise: residency only). Untimed, between the
/// phases.

#include <mpi.h>

#include <cstdint>
#include <string>

#include "pio/results.hpp"

namespace pio::harness {

/// How much of one file is in this node's page cache.
struct FileResidency {
  std::int64_t bytes = 0;    ///< the file's size: the range measured, [0, size)
  std::int64_t resident = 0; ///< bytes of it in the page cache (whole pages, at most bytes)
  std::int64_t dirty = -1;   ///< of those, dirty or under writeback (-1: mincore cannot tell)
  CacheProbe probe = CacheProbe::Cachestat;
  bool memory_file_system = false; ///< tmpfs or ramfs
};

/// Measures path's residency on this node with `probe`: cachestat(2), falling back to mincore(2)
/// where the kernel has no cachestat (ENOSYS), or mincore(2) itself. Throws pio::Error naming
/// the call that failed.
FileResidency file_residency(const std::string &path, CacheProbe probe = CacheProbe::Cachestat);

/// Flushes path's dirty pages (fsync) and evicts its clean ones from this node's page cache
/// (posix_fadvise POSIX_FADV_DONTNEED over the whole file). Throws pio::Error.
void drop_file_cache(const std::string &path);

/// Collective over `all` (every rank of the test): each node's lowest rank of `all` takes the
/// distinct paths its node's ranks have open (`my_path`, "" for none), drops them first when
/// `drop`, then measures them (after a write phase, `access` Write, their dirty bytes too). Returns
/// the check on `all`'s rank 0 (the node sums there; other ranks get a partial record); throws
/// nothing: a probe that fails counts as not resident and its message is returned in `error` (on
/// the failing rank) for the caller to agree on.
CacheCheck check_page_cache(MPI_Comm all, const std::string &my_path, bool drop, PhaseAccess access,
                            std::string &error);

} // namespace pio::harness
