// The rules of CacheMode and ReadShift (cache_rules.hpp).
#include "config/cache_rules.hpp"

#include "config/config_error.hpp"
#include "config/values.hpp"
#include "pio/memory_fs.hpp"

namespace pio::harness {

std::string direct_io_refusal(const ModuleBlock &block, const GlobalConfig &global) {
  const std::string file = block.test_file.empty() ? global.test_file : block.test_file;
  // A missing directory is TestFile's own error, reported at the open.
  if (const char *name = memory_file_system_at(file))
    return "TestFile " + file + " is on " + name + kNoStorageBelowPageCache;
  return {};
}

void check_cache_rules(Config &config) {
  for (auto &b : config.modules) {
    if (b.read_shift > 0 && b.files_from.name.empty()) {
      const DirectiveLine *at = setting_line(b, "ReadShift");
      throw ConfigError(at ? at->file : b.file, at ? at->line : b.line,
                        "ReadShift " + std::to_string(b.read_shift) +
                            " in a block without FilesFrom: a shifted rank reads what another "
                            "rank wrote in an earlier block, and this block writes its own files",
                        "add FilesFrom <label of the block that writes the files>, or use the "
                        "pattern modules' ReorderTasks to shift the readers within one block");
    }
    if (b.cache_mode != CacheMode::Direct)
      continue;
    const std::string why = direct_io_refusal(b, config.global);
    if (!why.empty()) {
      const DirectiveLine *at = setting_line(b, "CacheMode");
      throw ConfigError(at ? at->file : b.file, at ? at->line : b.line,
                        "CacheMode direct cannot bypass the page cache for the block at " + b.file +
                            ":" + std::to_string(b.line) + ": " + why,
                        "use CacheMode drop (flush and evict before each read phase), or a "
                        "TestFile on a disk file system");
    }
  }
}

} // namespace pio::harness
