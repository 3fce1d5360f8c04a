// The rules of CacheMode and ReadShift (cache_rules.hpp).
#include "config/cache_rules.hpp"

#include <linux/magic.h>
#include <sys/vfs.h>

#include "config/config_error.hpp"
#include "config/values.hpp"

namespace pio::harness {

namespace {

/// The directory a path's file goes in ("." for a bare name).
std::string directory_of(const std::string &path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

std::string direct_io_refusal(const ModuleBlock &block, const GlobalConfig &global) {
  const std::string file = block.test_file.empty() ? global.test_file : block.test_file;
  const std::string dir = directory_of(file);
  struct statfs fs;
  if (::statfs(dir.c_str(), &fs) != 0)
    return {}; // a missing directory is TestFile's own error, reported at the open
  if (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC)
    return "TestFile " + file + " is on " + (fs.f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs") +
           ", whose pages are its storage: there is nothing below the page cache for O_DIRECT "
           "to reach (older kernels refuse O_DIRECT there with EINVAL, newer ones buffer as usual)";
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
