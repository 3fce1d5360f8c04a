#pragma once
/// The rules between a block's I/O interface and its other settings (docs/interfaces.md):
/// POSIX takes no MPI-IO hints, O_DIRECT is POSIX's; and the interface settings as the results
/// and labels show them.

#include <map>
#include <string>

#include "config/config_model.hpp"

namespace pio::harness {

/// Throws ConfigError at the line at fault (a block's or global Hint line, a Sweep line, the
/// ODirect line) for a block whose settings its interface cannot honour: hints under
/// Interface posix, ODirect on under another interface than posix.
void check_interface_rules(const Config &config);

/// The settings of o's own interface, by directive name, as written: posix {ODirect on|off},
/// hdf5 {H5Alignment 0, H5ChunkSize 1M, ...}, mpiio none.
std::map<std::string, std::string> interface_settings(const io::Options &o);

/// The line of `block` that sets directive `name` (the last one: global, block, then swept),
/// or nullptr when it has its default.
const DirectiveLine *setting_line(const ModuleBlock &block, const std::string &name);

} // namespace pio::harness
