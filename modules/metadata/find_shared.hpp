#pragma once
/// IO500's find over all ranks: each directory is read by one rank, as pfind gives each
/// directory to one rank (IO500's default: no -H hashing of a single directory). pfind balances
/// with a work-stealing queue; here the walk is level-synchronous: the directories of one level,
/// in an order every rank agrees on (the gathered list), go round-robin to the ranks, each rank
/// reads its own (find_in_dir), and the subdirectories found are gathered for the next level.

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "find_walk.hpp"

namespace pio::metadata {

/// Whether `rank` of `ranks` reads the directory at `index` of a level's list (round-robin).
inline bool reads_dir(std::size_t index, int rank, int ranks) {
  return static_cast<std::int64_t>(index % static_cast<std::size_t>(ranks)) == rank;
}

/// Every rank's `mine`, concatenated in rank order, on every rank (MPI_Allgatherv of the
/// paths). Collective over comm.
std::vector<std::string> gather_paths(MPI_Comm comm, const std::vector<std::string> &mine);

/// Walks `top` with every rank of comm: returns what this rank examined (the sums over the ranks
/// are every entry below top once). Collective over comm; if a rank cannot read a directory,
/// every rank throws the same pio::Error.
FindCount find_walk_shared(io::Backend &b, const std::string &top, const FindRule &rule,
                           MPI_Comm comm);

} // namespace pio::metadata
