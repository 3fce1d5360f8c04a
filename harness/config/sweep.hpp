#pragma once
/// Sweeps in the config: a block written once with `Sweep <name> <value>...` lines runs once for
/// every combination of the swept values (the parameter sweeps of a file-system tuning
/// experiment, written by hand as 24 blocks before).

#include <string>
#include <utility>
#include <vector>

#include "config/config_model.hpp"

namespace pio::harness {

/// Replaces every block with Sweep lines by one block per combination of the swept values, in
/// the config's order, the first Sweep line varying slowest. Each expanded block has the values
/// set (flags, hints, and a module-directive line at the Sweep's file:line, so that the module's
/// spec checks it there) and listed in ModuleBlock::swept. Throws ConfigError at a Sweep's
/// file:line (a directive swept twice, or both set and swept, or too many blocks).
void expand_sweeps(Config &config);

/// Sets one setting of a block to `value` as a one-value Sweep line at file:line would: a hint
/// (Hint:<key>), a harness block setting (Collective, Interface ...; checked by its spec) or a
/// module directive (its earlier lines in the block give way; the module's spec checks it at
/// file:line when the block is planned). Not recorded in ModuleBlock::swept. Throws pio::Error
/// for a harness setting's bad value.
void set_block_value(ModuleBlock &b, const std::string &name, const std::string &value,
                     const std::string &file, int line);

} // namespace pio::harness
