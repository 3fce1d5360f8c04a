#include "stonewall.hpp"

#include <exception>

#include "directories.hpp"
#include "pio/error.hpp"

namespace pio::metadata {

namespace {

std::string describe(const std::exception &e) {
  if (const auto *pe = dynamic_cast<const Error *>(&e))
    return std::string(pe->what()) + " (fix: " + pe->hint() + ")";
  return e.what();
}

} // namespace

StonewallOutcome run_stonewalled(MPI_Comm comm, std::int64_t limit, double budget_s,
                                 const std::function<void(std::int64_t)> &op,
                                 std::atomic<std::uint64_t> *progress) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  StonewallOutcome o;
  const double t0 = MPI_Wtime();
  int stop = 0; // the root's decision, broadcast once
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank != 0)
    MPI_Ibcast(&stop, 1, MPI_INT, 0, comm, &req);
  bool stopped = false;
  std::int64_t i = 0;
  try {
    for (; i < limit; ++i) {
      if (budget_s > 0) {
        if (rank == 0) {
          if (MPI_Wtime() - t0 >= budget_s) {
            stop = 1;
            break;
          }
        } else if ((i & 7) == 0) { // polling costs a little; every 8th item is often enough
          int flag = 0;
          MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
          if (flag) {
            stopped = true;
            break;
          }
        }
      }
      op(i);
    }
  } catch (const std::exception &e) {
    o.error = describe(e);
  }
  o.done_at_stop = i;
  o.stonewall_s = MPI_Wtime() - t0;
  if (rank == 0) {
    o.hit = stop == 1;
    stop = 1; // tells the others to stop, whatever the reason rank 0 stopped
    MPI_Ibcast(&stop, 1, MPI_INT, 0, comm, &req);
  }
  if (!stopped)
    wait_counting(req, progress); // the root's stop, once it has done its items
  std::int64_t mine[2] = {o.done_at_stop, o.error.empty() ? 0 : 1}, max[2] = {0, 0};
  MPI_Request agreed = MPI_REQUEST_NULL;
  MPI_Iallreduce(mine, max, 2, MPI_INT64_T, MPI_MAX, comm, &agreed);
  wait_counting(agreed, progress); // every rank done with its items
  MPI_Allreduce(&o.done_at_stop, &o.min_at_stop, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(&o.done_at_stop, &o.sum_at_stop, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Bcast(&o.hit, 1, MPI_CXX_BOOL, 0, comm);
  o.max_at_stop = max[0];
  o.any_error = max[1] != 0;
  const double wear_start = MPI_Wtime();
  if (!o.any_error) {
    try {
      for (i = o.done_at_stop; i < o.max_at_stop; ++i)
        op(i);
    } catch (const std::exception &e) {
      o.error = describe(e);
    }
  }
  o.wear_out_s = MPI_Wtime() - wear_start;
  MPI_Allreduce(&o.stonewall_s, &o.max_stonewall_s, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&o.wear_out_s, &o.max_wear_out_s, 1, MPI_DOUBLE, MPI_MAX, comm);
  return o;
}

} // namespace pio::metadata
