#pragma once
/// Block labels: the stable name of a block in the console header, the CSV `block` column and
/// the JSON `label`, by which results of two runs are matched. Never a line number, so a label
/// survives editing the config.

#include <vector>

#include "plan/block_plan.hpp"

namespace pio::harness {

/// Sets every plan's label. A block with a Label gets it (followed by its swept settings when it
/// was swept); any other gets its module, its mode, its swept settings and the harness settings
/// it has away from their defaults (Collective=on, FileView=off, SyncWrites=on, Interface=posix,
/// ODirect=on, the H5 settings, TimingScope, StoneWall, its own TestFile, a Processes line,
/// hints), e.g. "simple_strided(write) cb_buffer_size=4M Collective=on". A label depends on its own
/// block only, so adding a block to a config changes no other label. Throws ConfigError naming both
/// blocks when two labels are equal.
void label_blocks(std::vector<ModulePlan> &plans);

} // namespace pio::harness
