#include "run/rank_groups.hpp"

#include <set>

namespace pio::harness {

namespace {
int color_of(const RankGroups &g, int rank) {
  return static_cast<size_t>(rank) < g.color.size() ? g.color[static_cast<size_t>(rank)] : -1;
}
} // namespace

std::string check_groups(const RankGroups &g, int size) {
  if (g.color.empty())
    return {};
  size_t needed = 0;
  for (size_t r = 0; r < g.color.size(); ++r)
    if (g.color[r] >= 0)
      needed = r + 1;
  if (needed > static_cast<size_t>(size))
    return "it needs " + std::to_string(needed) + " processes, the run has " +
           std::to_string(size) + " (fix: run with mpiexec -n " + std::to_string(needed) +
           " or more)";
  if (color_of(g, 0) < 0)
    return "rank 0 does not take part (fix: every test's RankGroups must include rank 0, which "
           "gathers the results)";
  return {};
}

Comm shifted_ranks(MPI_Comm comm, int shift) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Comm out;
  if (shift % size == 0)
    return out;
  mpi_check(MPI_Comm_split(comm, 0, (rank + shift) % size, out.out()), "MPI_Comm_split");
  return out;
}

GroupComms make_group_comms(MPI_Comm world, const RankGroups &g) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  GroupComms c;
  if (g.color.empty()) {
    c.all = c.group = world;
    c.procs = size;
    return c;
  }
  std::set<int> colors;
  for (int r = 0; r < size; ++r)
    if (color_of(g, r) >= 0) {
      colors.insert(color_of(g, r));
      ++c.procs;
    }
  c.groups = static_cast<int>(colors.size());
  const int mine = color_of(g, rank);
  if (c.procs == size) {
    c.all = world;
  } else {
    mpi_check(MPI_Comm_split(world, mine >= 0 ? 0 : MPI_UNDEFINED, rank, c.owned_all.out()),
              "MPI_Comm_split");
    c.all = c.owned_all.get();
  }
  if (mine < 0)
    return c;
  c.group_index = static_cast<int>(std::distance(colors.begin(), colors.find(mine)));
  if (c.groups == 1) {
    c.group = c.all;
  } else {
    mpi_check(MPI_Comm_split(c.all, c.group_index, rank, c.owned_group.out()), "MPI_Comm_split");
    c.group = c.owned_group.get();
  }
  return c;
}

} // namespace pio::harness
