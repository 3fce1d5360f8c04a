// Rounds (rounds.hpp).
#include "plan/rounds.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "config/config_error.hpp"

namespace pio::harness {

std::vector<ScheduledBlock> round_schedule(int blocks, int rounds, std::uint64_t seed) {
  std::vector<ScheduledBlock> out;
  std::mt19937_64 rng(seed);
  std::vector<int> order(static_cast<size_t>(blocks));
  for (int r = 1; r <= rounds; ++r) {
    std::iota(order.begin(), order.end(), 0);
    if (rounds > 1)
      std::shuffle(order.begin(), order.end(), rng);
    for (int i : order)
      out.push_back({r, i});
  }
  return out;
}

std::uint64_t agreed_round_seed(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::uint64_t seed = 0;
  if (rank == 0)
    seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, comm);
  return seed;
}

void check_rounds(const Config &config, const std::vector<ModulePlan> &plans) {
  if (config.global.rounds <= 1)
    return;
  for (const auto &p : plans)
    if (p.chain.source >= 0) { // every chain has a block with FilesFrom
      const DirectiveLine &at = config.global.written.at("Rounds").back();
      throw ConfigError(
          at.file, at.line,
          "Rounds " + std::to_string(config.global.rounds) + " would shuffle the block " + p.label +
              ", which shares files with another (FilesFrom at " + p.block->files_from.file + ":" +
              std::to_string(p.block->files_from.line) + ")",
          "run blocks that share files without Rounds (or in a config of their "
          "own), or remove FilesFrom");
    }
}

} // namespace pio::harness
