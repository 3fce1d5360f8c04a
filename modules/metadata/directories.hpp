#pragma once
/// The test directory and the trees under it: made only where nothing is, claimed through the
/// harness (which removes the directory after the block and, after a crash, recognises it by its
/// owner record), and removed bottom-up touching nothing the run did not make.

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "pio/context.hpp"

namespace pio::metadata {

/// Completes req; while it waits (for slower ranks still working through their items) it counts
/// `progress` (ModuleContext::progress), so that StepTimeout's watchdog sees a rank that waits,
/// not one that hangs (a rank really stuck counts nothing and is named by its own watchdog).
/// Tests at once for the first 20 ms, as a blocking wait would, then every millisecond, leaving
/// the cores to the ranks still working. Without progress: MPI_Wait.
void wait_counting(MPI_Request &req, std::atomic<std::uint64_t> *progress);

/// MPI_Barrier over comm, waiting as wait_counting does.
void barrier_counting(MPI_Comm comm, std::atomic<std::uint64_t> *progress);

/// Collective over comm: if `error` is non-empty on some rank, every rank throws pio::Error with
/// the lowest such rank's text (so no rank waits in a later collective for a failed one). Waits
/// for the other ranks as wait_counting does.
void raise_agreed(MPI_Comm comm, const std::string &error,
                  std::atomic<std::uint64_t> *progress = nullptr);

/// Rank 0 claims `top` through the harness with the rules of what the run may make in it (kept
/// in its owner record for the cleanup after a crash) and creates it; an existing directory
/// (allowed by Overwrite) is used only if empty, unless `made_earlier` (FilesFrom: an earlier
/// block of the chain made it and its trees, and the claim succeeded, so it is this run's).
/// Collective over ctx.comm; throws the same Error everywhere on a symbolic link, a foreign file
/// or entry, or a failed mkdir. Returns true if this block created it.
/// Through ctx.backend (stat, mkdir, readdir).
bool make_test_dir(const ModuleContext &ctx, const std::string &top, const TreeRules &rules,
                   bool made_earlier = false);

/// Creates each directory in order (parents first) through b; one that exists already is an
/// error, since the run has not made it. Returns "" or the failure.
std::string make_dirs(io::Backend &b, const std::vector<std::string> &dirs);

/// Removes the directories in reverse order (children first) through b where they exist and are
/// empty; returns those it could not remove (something the run did not make is inside).
std::vector<std::string> remove_dirs(io::Backend &b, const std::vector<std::string> &dirs);

} // namespace pio::metadata
