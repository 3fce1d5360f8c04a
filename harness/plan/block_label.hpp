#pragma once
/// Block labels: the stable name of a block in the console header, the CSV `block` column and
/// the JSON `label`, by which results of two runs are matched. Never a line number, so a label
/// survives editing the config.

#include <vector>

#include "plan/block_plan.hpp"

namespace pio::harness {

/// Sets every plan's label. A block with a Label gets it (followed by its swept settings when it
/// was swept); any other gets its module, its mode and the settings that tell it apart from the
/// other blocks of that module (its swept settings first; the process count is one of them), e.g.
/// "simple_strided(write) Processes=2 cb_buffer_size=4M Collective=on". Throws ConfigError naming
/// both blocks when two labels are equal.
void label_blocks(std::vector<ModulePlan> &plans);

} // namespace pio::harness
