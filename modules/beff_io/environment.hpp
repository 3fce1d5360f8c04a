#pragma once
/// What b_eff_io needs to know about the machine before it plans: memory per node and processes
/// per node (for M_PART, b_eff_io paper §5.1), whether shared file pointers work (pattern type 1;
/// Euro-Par b_eff_io paper §5) and the free space that bounds the files by default.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pio/context.hpp"

namespace pio::beff_io {

/// What the probe found (the same on every rank).
struct Environment {
  std::int64_t node_memory = 0;          ///< memory of one node (minimum over nodes)
  std::string memory_source;             ///< how node_memory was found
  std::map<int, int> processes_per_node; ///< partition -> its processes on its fullest node
  bool shared_pointers = true;           ///< type 1 uses shared file pointers
  std::string positioning;               ///< how type 1 positions, for the results
  std::int64_t max_file_size = 0;        ///< MaxFileSize, or 90 % (tmpfs: 40 %) of the free space
};

/// Free bytes (for unprivileged users) in the directory of `path`; -1 if unknown.
std::int64_t free_space_of(const std::string &path);

/// Probes the machine (collective over ctx.comm). `partitions`: the process counts to measure;
/// `type1`: pattern type 1 is selected, so shared file pointers are probed on a scratch file
/// TestFile.beff_io-probe, claimed from the harness. Throws pio::Error on every rank alike.
Environment probe_environment(const ModuleContext &ctx, const std::vector<int> &partitions,
                              bool type1);

} // namespace pio::beff_io
