#include "inherited_tree.hpp"

#include <string>

#include "directories.hpp"
#include "item_ops.hpp"
#include "pio/error.hpp"

namespace pio::metadata {

bool tree_exists_for(io::Backend &b, const Geometry &g, int rank) {
  const std::string base = g.base(g.layout == Layout::Easy ? rank : 0);
  const auto st = b.stat(base.c_str());
  return st && st->type == io::FileStat::Type::Directory;
}

bool agreed_tree_exists(MPI_Comm comm, io::Backend &b, const Geometry &g) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int mine = 0, all = 0, any = 0;
  std::string error;
  try {
    mine = tree_exists_for(b, g, rank);
  } catch (const Error &e) {
    error = std::string(e.what()) + " (fix: " + e.hint() + ")";
  }
  raise_agreed(comm, error);
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm);
  if (all != any)
    throw Error("the " + std::string(layout_name(g.layout)) + " tree under " + g.top +
                    " exists for some ranks only",
                "the earlier block of the chain (FilesFrom) that made it did not complete: run "
                "the chain again from its first block");
  return all != 0;
}

std::int64_t count_items(io::Backend &b, const Geometry &g, int owner) {
  ItemPaths paths(g, owner);
  std::int64_t lo = 0, hi = g.items; // items below lo exist, items from hi on do not
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (b.stat(paths.path(mid)))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

std::int64_t agreed_item_count(MPI_Comm comm, io::Backend &b, const Geometry &g) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::int64_t mine = 0;
  std::string error;
  try {
    mine = count_items(b, g, rank);
  } catch (const Error &e) {
    error = std::string(e.what()) + " (fix: " + e.hint() + ")";
  }
  raise_agreed(comm, error);
  std::int64_t lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(&mine, &hi, 1, MPI_INT64_T, MPI_MAX, comm);
  if (lo != hi)
    throw Error("the " + std::string(layout_name(g.layout)) + " tree under " + g.top + " holds " +
                    std::to_string(lo) + ".." + std::to_string(hi) +
                    " items per rank, different on different ranks",
                "the earlier block of the chain (FilesFrom) that created them did not complete "
                "its create on every rank: run the chain again from its first block");
  return lo;
}

} // namespace pio::metadata
