#pragma once
/// Rounds N (docs/configuration.md, "Rounds"): the config's blocks run N times, each round in a
/// new shuffled order, so that drift on a shared machine (other jobs, the page cache, the
/// host's memory returns) spreads over every setting instead of lining up with the blocks that
/// happen to run late.

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "config/config_model.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// One block run of the schedule.
struct ScheduledBlock {
  int round = 1; ///< 1 .. Rounds
  int index = 0; ///< the block's plan index
};

/// The run's blocks in order: with one round the config's order; with more, every round a
/// permutation of all blocks drawn from `seed` (the same on every rank).
std::vector<ScheduledBlock> round_schedule(int blocks, int rounds, std::uint64_t seed);

/// A seed drawn on rank 0 and broadcast: every rank shuffles alike, and the results record it.
std::uint64_t agreed_round_seed(MPI_Comm comm);

/// Throws ConfigError at the Rounds line when rounds would reorder blocks that share files
/// (FilesFrom: a later block reads what an earlier one wrote).
void check_rounds(const Config &config, const std::vector<ModulePlan> &plans);

} // namespace pio::harness
