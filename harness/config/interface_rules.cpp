// The rules between a block's I/O interface and its other settings (interface_rules.hpp).
#include "config/interface_rules.hpp"

#include "config/config_error.hpp"
#include "config/text.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

namespace {

std::string where(const DirectiveLine &l) { return l.file + ":" + std::to_string(l.line); }

std::string flag(bool on) { return on ? "on" : "off"; }

/// "Interface posix (set at f:l)" or "Interface mpiio (the default)".
std::string interface_text(const ModuleBlock &b) {
  const DirectiveLine *at = setting_line(b, "Interface");
  return std::string("Interface ") + io::to_string(b.io.kind) +
         (at ? " (set at " + where(*at) + ")" : " (the default)");
}

} // namespace

const DirectiveLine *setting_line(const ModuleBlock &block, const std::string &name) {
  const DirectiveLine *found = nullptr;
  for (const auto &l : block.harness_lines)
    if (lower(l.name) == lower(name))
      found = &l;
  return found;
}

void check_interface_rules(const Config &config) {
  for (const auto &b : config.modules) {
    const std::string block = b.file + ":" + std::to_string(b.line);
    if (b.io.kind == io::InterfaceKind::Posix && !b.hints.empty()) {
      const DirectiveLine *hint = setting_line(b, "Hint");
      const std::string key = hint && !hint->args.empty() ? hint->args[0] : b.hints.begin()->first;
      throw ConfigError(hint ? hint->file : b.file, hint ? hint->line : b.line,
                        "Hint " + key + " applies to the block at " + block + ", which uses " +
                            interface_text(b) + ": POSIX takes no MPI-IO hints",
                        "remove the Hint lines the block gets (global ones too: move them into "
                        "the blocks that use Interface mpiio or hdf5), or choose another "
                        "Interface for this block");
    }
    if (b.io.o_direct && b.io.kind != io::InterfaceKind::Posix) {
      const DirectiveLine *at = setting_line(b, "ODirect");
      throw ConfigError(at ? at->file : b.file, at ? at->line : b.line,
                        "ODirect on applies to the block at " + block + ", which uses " +
                            interface_text(b) + ": O_DIRECT is a flag of POSIX's open",
                        "set Interface posix in that block, or remove ODirect on (or set it "
                        "off in the blocks of other interfaces)");
    }
  }
}

std::map<std::string, std::string> interface_settings(const io::Options &o) {
  switch (o.kind) {
  case io::InterfaceKind::MpiIo:
    return {};
  case io::InterfaceKind::Posix:
    return {{"ODirect", flag(o.o_direct)}};
  case io::InterfaceKind::Hdf5:
    return {{"H5Alignment", format_size(o.h5_alignment)},
            {"H5ChunkSize", format_size(o.h5_chunk_size)},
            {"H5CollectiveMetadata", flag(o.h5_collective_metadata)},
            {"H5MetaBlockSize", format_size(o.h5_meta_block_size)}};
  }
  return {};
}

} // namespace pio::harness
