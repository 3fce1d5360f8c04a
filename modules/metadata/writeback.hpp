#pragma once
/// The test directory's file system written back to disk before a phase, untimed: IO500 runs
/// other phases (minutes) between mdtest's create and its stat / read / delete, so the kernel has
/// written the items back and allocated their blocks by then; a block that runs the phases back
/// to back would otherwise stat, read and unlink files still in the page cache.

#include <mpi.h>

#include <string>

#include "pio/io/backend.hpp"

namespace pio::metadata {

/// Every rank flushes the file system of `dir` through b (Backend::sync(dir): POSIX syncfs(2) on
/// a descriptor of it), then all wait in a barrier. Every rank,
/// not one per node: syncfs flushes the calling client's dirty data, so on a network file system
/// each node must call it, and a second call on a node finds nothing left to write. Collective
/// over comm; throws the same pio::Error on every rank if any rank's open or syncfs fails.
/// Returns the slowest rank's seconds (syncfs and barrier) on every rank.
double write_back(MPI_Comm comm, io::Backend &b, const std::string &dir);

} // namespace pio::metadata
