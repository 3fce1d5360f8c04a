#pragma once
/// What a run holds for its chains of blocks sharing files (FilesFrom, shared_files.hpp) while
/// they run. The plan (ModulePlan::chain) decides which block's files a block works on; this
/// keeps, on this rank, the files and directories kept for a chain's later blocks, the units
/// each test of a block made (a later block reads no further), and which chains a failed block
/// broke; and removes a chain's files after its last block.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "guard/owned_files.hpp"
#include "pio/spec.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// The chains of blocks sharing files, as the run goes (this rank).
class FileChains {
public:
  /// The label of the block of plan's chain that failed before plan's block (which then does
  /// not run: its files may be incomplete), or nullptr.
  const std::string *broken_before(const ModulePlan &plan) const;

  /// Where the files plan's module claims are kept: for its chain's later blocks when one uses
  /// them, else in `kept` (the caller removes those after cleanup_module).
  std::set<std::string> &claims_of(const ModulePlan &plan, std::set<std::string> &kept);

  /// A block working on an earlier block's files goes no further than that block wrote: caps
  /// each phase of test `test` (ChainCap::Units) at the units the earlier block's same test
  /// completed on this rank. A test with units of its own bounds itself (ChainCap::FileSize).
  void cap_units(const ModulePlan &plan, int test, TestSpec &running) const;

  /// The units each phase of test `test`'s last repetition completed on this rank, for a later
  /// block of plan's chain (nothing when none uses them).
  void record_units(const ModulePlan &plan, int test, std::vector<std::int64_t> units);

  /// Keeps a file the harness made for test of plan's block for the chain's later blocks;
  /// false when no later block uses it.
  bool keep_file(const ModulePlan &plan, const std::string &path);

  /// After plan's block: its failure breaks the chain (the later blocks do not run); after the
  /// chain's last block its files and directories go, once every rank of comm (the block's) is
  /// done with them, its directories emptied by their claimed rules first if the chain broke
  /// (the last block, which removes its items, failed or did not run). Collective over comm
  /// when the block ends a chain. Returns nothing when the block ends no chain, else this
  /// rank's first problem removing them ("" none; what is left stays, with its owner record).
  std::optional<std::string> after_block(const ModulePlan &plan, bool failed, OwnedFiles &files,
                                         MPI_Comm comm);

  /// At the run's end (a config error stopped it inside a chain): every chain's files still
  /// kept go, their directories emptied by their rules. Collective over comm (the run's).
  void release_all(OwnedFiles &files, MPI_Comm comm);

private:
  /// Releases chain `first`'s files on this rank; "" or the first problem.
  std::string release_here(int first, OwnedFiles &files, bool sweep);

  /// Per chain (its first block): the files and directories kept for its later blocks.
  std::map<int, std::set<std::string>> files_;
  /// (block, test) -> the units each phase of the test's last repetition completed.
  std::map<std::pair<int, int>, std::vector<std::int64_t>> units_;
  /// Chains (first block) a block of which failed -> that block's label.
  std::map<int, std::string> broken_;
};

} // namespace pio::harness
