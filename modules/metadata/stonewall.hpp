#pragma once
/// Stonewalling with wear-out (IO500's rule, hpc/ior issue 11; mdtest -W): a phase runs until
/// rank 0 says its time is up; then every rank completes the largest count any rank reached,
/// so the later phases find the same number of items on every rank.

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace pio::metadata {

/// What a stonewalled phase did on this rank, and over all ranks after finish().
struct StonewallOutcome {
  std::int64_t done_at_stop = 0; ///< this rank's items when it stopped
  std::int64_t min_at_stop = 0;  ///< over ranks
  std::int64_t max_at_stop = 0;  ///< over ranks: every rank completes this many (wear-out)
  std::int64_t sum_at_stop = 0;  ///< over ranks
  double stonewall_s = 0;        ///< this rank's time from start to its stop
  double max_stonewall_s = 0;    ///< over ranks
  double wear_out_s = 0;         ///< this rank's time from its stop to the end of wear-out
  double max_wear_out_s = 0;     ///< over ranks
  bool hit = false;              ///< rank 0 stopped before every item of its range was done
  std::string error;             ///< this rank's failure ("" = none)
  bool any_error = false;        ///< some rank failed (no wear-out then)
};

/// Runs items [0, limit) through op(i) until rank 0 decides the time is up (a non-blocking
/// broadcast the other ranks poll), then, unless a rank failed, every rank runs op up to the
/// largest count any rank reached. budget_s <= 0: no deadline (all `limit` items). Collective
/// over comm; an op that throws stops this rank, which still takes part in the agreement. While
/// a rank waits there for slower ranks it counts `progress` (ModuleContext::progress), if given.
StonewallOutcome run_stonewalled(MPI_Comm comm, std::int64_t limit, double budget_s,
                                 const std::function<void(std::int64_t)> &op,
                                 std::atomic<std::uint64_t> *progress = nullptr);

} // namespace pio::metadata
