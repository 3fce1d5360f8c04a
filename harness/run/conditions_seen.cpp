// What the nodes saw while a test ran (conditions_seen.hpp).
#include "run/conditions_seen.hpp"

#include <algorithm>
#include <vector>

#include "pio/mpi_handles.hpp"

namespace pio::harness {

void PhaseWait::start() {
  delay0_us_ = own_run_delay_us();
  wall0_s_ = MPI_Wtime();
}

void PhaseWait::stop() {
  const double wall = MPI_Wtime();
  const double delay = own_run_delay_us();
  if (delay0_us_ < 0 || delay < 0)
    return;
  waited_us_ += delay - delay0_us_;
  wall_us_ += (wall - wall0_s_) * 1e6;
}

double PhaseWait::share() const {
  return wall_us_ > 0 ? std::clamp(waited_us_ / wall_us_, 0.0, 1.0) : -1;
}

TestConditions test_conditions(MPI_Comm block, MPI_Comm node, bool taking_part, int usable_cores,
                               const NodeSample &start, double own_wait_share) {
  int node_rank = 0, rank = 0, size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_rank(block, &rank);
  MPI_Comm_size(block, &size);
  int mine = taking_part ? 1 : 0, on_node = 0;
  mpi_check(MPI_Reduce(&mine, &on_node, 1, MPI_INT, MPI_SUM, 0, node), "MPI_Reduce");
  // Every rank of the test: the share of its recorded phases it waited for a CPU. Leaders: ranks
  // of the test on the node, its cores, the node's CPU pressure share, pages swapped.
  double row[5] = {-1, -1, -1, -1, taking_part ? own_wait_share : -1};
  if (node_rank == 0) {
    const NodeSample end = sample_node();
    const double wall_us = (end.wall_s - start.wall_s) * 1e6;
    row[0] = on_node;
    row[1] = usable_cores;
    if (end.cpu_some_us >= 0 && start.cpu_some_us >= 0 && wall_us > 0)
      row[2] = std::min(1.0, (end.cpu_some_us - start.cpu_some_us) / wall_us);
    if (end.swapped_pages >= 0 && start.swapped_pages >= 0)
      row[3] = static_cast<double>(end.swapped_pages - start.swapped_pages);
  }
  std::vector<double> rows(static_cast<size_t>(rank == 0 ? 5 * size : 0));
  mpi_check(MPI_Gather(row, 5, MPI_DOUBLE, rows.data(), 5, MPI_DOUBLE, 0, block), "MPI_Gather");
  TestConditions c;
  if (rank != 0)
    return c;
  double worst = -1;
  for (int r = 0; r < size; ++r) {
    const double *n = &rows[static_cast<size_t>(5 * r)];
    c.cpu_wait_fraction = std::max(c.cpu_wait_fraction, n[4]);
    if (n[0] < 0)
      continue; // not a node's leader
    const double load = n[1] > 0 ? n[0] / n[1] : n[0];
    if (load > worst) {
      worst = load;
      c.ranks_per_node = static_cast<int>(n[0]);
      c.usable_cores = static_cast<int>(n[1]);
    }
    c.node_cpu_pressure = std::max(c.node_cpu_pressure, n[2]);
    c.swapped_pages = std::max(c.swapped_pages, static_cast<std::int64_t>(n[3]));
  }
  return c;
}

} // namespace pio::harness
