// Blocks that share files (see shared_files.hpp).
#include "plan/shared_files.hpp"

#include "config/config_error.hpp"

namespace pio::harness {

namespace {

std::string where(const ModuleBlock &b) { return b.file + ":" + std::to_string(b.line); }

/// A block's Processes in words.
std::string ranks_text(int processes) {
  return processes <= 0   ? std::string("every rank")
         : processes == 1 ? std::string("1 rank")
                          : std::to_string(processes) + " ranks";
}

/// The index of the block labelled `label`, or -1.
int find_label(const std::vector<ModulePlan> &plans, const std::string &label) {
  for (size_t i = 0; i < plans.size(); ++i)
    if (plans[i].label == label)
      return static_cast<int>(i);
  return -1;
}

/// The labels of the blocks before block i, for the message.
std::string earlier_labels(const std::vector<ModulePlan> &plans, size_t i) {
  std::string out;
  for (size_t k = 0; k < i; ++k)
    out += (out.empty() ? "" : ", ") + plans[k].label;
  return out.empty() ? "none" : out;
}

} // namespace

void link_shared_files(const Config &config, std::vector<ModulePlan> &plans) {
  for (size_t i = 0; i < plans.size(); ++i) {
    ModulePlan &p = plans[i];
    p.chain = FileChain{};
    p.chain.self = p.chain.first = static_cast<int>(i);
    p.test_file = p.block->test_file.empty() ? config.global.test_file : p.block->test_file;
    const DirectiveLine &from = p.block->files_from;
    if (from.name.empty())
      continue;
    const std::string &label = from.args.at(0);
    const int s = find_label(plans, label);
    if (s < 0)
      throw ConfigError(
          from.file, from.line, "FilesFrom " + label + ": no block has that label",
          "name the Label of an earlier block (before this one: " + earlier_labels(plans, i) + ")");
    if (s == static_cast<int>(i))
      throw ConfigError(from.file, from.line, "FilesFrom " + label + " names this block itself",
                        "name the Label of the earlier block that writes the files");
    if (s > static_cast<int>(i))
      throw ConfigError(from.file, from.line,
                        "FilesFrom " + label + " names a later block (" +
                            where(*plans[static_cast<size_t>(s)].block) + ")",
                        "move this block after that one: blocks run in file order");
    ModulePlan &src = plans[static_cast<size_t>(s)];
    if (src.block->processes != p.block->processes)
      throw ConfigError(from.file, from.line,
                        "FilesFrom " + label + ": this block runs on " +
                            ranks_text(p.block->processes) + " and that one (" + where(*src.block) +
                            ") on " + ranks_text(src.block->processes),
                        "give both the same Processes: each rank uses the files it made");
    if (!p.block->test_file.empty() && p.block->test_file != src.test_file)
      throw ConfigError(from.file, from.line,
                        "FilesFrom " + label + ": this block's TestFile " + p.block->test_file +
                            " is not the file of " + label + " (" + src.test_file + ")",
                        "remove this block's TestFile: it uses the files of the block it names");
    p.test_file = src.test_file;
    p.chain.source = s;
    p.chain.first = src.chain.first;
    // Every earlier block of the chain is no longer its last.
    for (size_t k = 0; k < i; ++k)
      if (plans[k].chain.first == p.chain.first)
        plans[k].chain.last = false;
  }
  for (ModulePlan &p : plans) // another block of the chain runs after it: its files stay
    p.chain.used_later = !p.chain.last;
}

} // namespace pio::harness
