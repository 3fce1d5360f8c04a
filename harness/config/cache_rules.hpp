#pragma once
/// The rules of CacheMode and ReadShift (docs/reference/timing.md, "The page cache"): whether a
/// block can read and write with O_DIRECT, and that a shifted read has an earlier block's files to
/// read.

#include <string>

#include "config/config_model.hpp"

namespace pio::harness {

/// Why `block` cannot bypass the page cache with O_DIRECT ("" when it can, as far as the file
/// system goes): its TestFile's directory is on a memory file system (tmpfs, ramfs), which has no
/// storage below its page cache. The file system is the directory's as found now (statfs); the
/// plan checks that the block's backend has an O_DIRECT path (capability o_direct), and the
/// backend the rest (alignment) when it opens the file.
std::string direct_io_refusal(const ModuleBlock &block, const GlobalConfig &global);

/// Throws ConfigError at the line at fault for a block whose file system cannot honour CacheMode
/// direct (direct_io_refusal), and for ReadShift in a block without FilesFrom.
void check_cache_rules(Config &config);

} // namespace pio::harness
