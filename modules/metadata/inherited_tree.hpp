#pragma once
/// What a tree inherited from an earlier block of a FilesFrom chain holds: whether it exists and
/// how many items each rank has in it, found untimed on disk instead of being passed along
/// (mdtest keeps the count in a stonewall status file, -x; this needs no extra file to own).
/// Create makes a rank's items in index order, so items 0..C-1 exist and C..Items-1 do not, and
/// with IO500's wear-out every rank has the same C.

#include <mpi.h>

#include <cstdint>

#include "pio/io/backend.hpp"
#include "tree.hpp"

namespace pio::metadata {

/// Whether the base directory `rank` creates in of g's tree exists (its own under easy, the
/// shared one under hard).
bool tree_exists_for(io::Backend &b, const Geometry &g, int rank);

/// Collective over comm: whether g's tree exists, each rank looking at the base directory it
/// creates in (its own under easy, the shared one under hard). Throws the same pio::Error on
/// every rank if the ranks disagree (a tree made on some ranks only).
bool agreed_tree_exists(MPI_Comm comm, io::Backend &b, const Geometry &g);

/// The count C of owner's items in g's tree (0..g.items): a binary search over the item
/// indices with the backend's stat (about log2(g.items) + 1 calls). Throws pio::Error on a stat
/// failure other than ENOENT.
std::int64_t count_items(io::Backend &b, const Geometry &g, int owner);

/// Collective over comm: every rank counts its own items (count_items with its rank) and the
/// ranks agree; returns the count, or throws the same pio::Error on every rank, naming the
/// counts' range and the tree, if they differ.
std::int64_t agreed_item_count(MPI_Comm comm, io::Backend &b, const Geometry &g);

} // namespace pio::metadata
