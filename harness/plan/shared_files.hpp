#pragma once
/// Blocks that share files (FilesFrom, docs/reference/configuration.md): a block names the Label of
/// an earlier block and works on the files and directories that block made. Blocks linked so form a
/// chain whose first block made the files; the chain's blocks run on the same ranks with one
/// TestFile.

#include <vector>

#include "config/config_model.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// Links every block's FilesFrom to the block it names and fills ModulePlan::chain and
/// ModulePlan::test_file (a block of a chain takes its first block's TestFile). Throws
/// ConfigError at the FilesFrom line if no earlier block has the label (naming the labels there
/// are), if the block names itself or a later block, if the two run on different Processes, or
/// if the block sets a TestFile other than the chain's.
void link_shared_files(const Config &config, std::vector<ModulePlan> &plans);

} // namespace pio::harness
