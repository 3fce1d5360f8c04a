#pragma once
/// The file system a path lies on, as this node sees it (docs/reference/results.md,
/// hosts[].file_system): its mount from /proc/self/mountinfo (type, FUSE subtype, source, options),
/// the loop device under it (backing file, direct I/O) and, for GlusterFS, the client graph its
/// servers handed out (the volume's options) from the mount's .meta directory.

#include <string>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// The file system of the directory of `test_file` (relative to the working directory), or a
/// record with an empty type when the directory cannot be resolved.
FileSystemInfo file_system_of(const std::string &test_file);

/// The mount of `dir` (an absolute path without symbolic links) in mountinfo's text: the entry
/// with the longest mount point at or above it, the last such mount when several are stacked.
FileSystemInfo mount_of(const std::string &mountinfo, const std::string &dir);

/// A GlusterFS volfile ("volume NAME / type T / option K V / subvolumes A B / end-volume").
std::vector<VolumeTranslator> parse_volfile(const std::string &text);

/// The volfile text of a graph (parse_volfile(volfile_text(g)) == g).
std::string volfile_text(const std::vector<VolumeTranslator> &graph);

} // namespace pio::harness
