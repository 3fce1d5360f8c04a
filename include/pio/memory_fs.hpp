#pragma once
/// Whether a file system keeps its files in memory (tmpfs, ramfs): nothing lies below its page
/// cache, so O_DIRECT reaches no storage and a read is always a memory copy.

#include <linux/magic.h>
#include <string>
#include <sys/vfs.h>

namespace pio {

/// "tmpfs" or "ramfs" for a memory file system's statfs type, else nullptr.
inline const char *memory_file_system(long type) {
  if (type == TMPFS_MAGIC)
    return "tmpfs";
  if (type == RAMFS_MAGIC)
    return "ramfs";
  return nullptr;
}

/// The memory file system an open descriptor's file is on, else nullptr (also if fstatfs fails).
inline const char *memory_file_system_of_fd(int fd) {
  struct statfs fs;
  return ::fstatfs(fd, &fs) == 0 ? memory_file_system(static_cast<long>(fs.f_type)) : nullptr;
}

/// The directory a file of `path` is created in ("." for a bare name).
inline std::string directory_of(const std::string &path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

/// The memory file system a file at `path` is (or would be) on, judged by its directory, else
/// nullptr (also when the directory does not exist: its open reports that).
inline const char *memory_file_system_at(const std::string &path) {
  struct statfs fs;
  return ::statfs(directory_of(path).c_str(), &fs) == 0
             ? memory_file_system(static_cast<long>(fs.f_type))
             : nullptr;
}

/// Why O_DIRECT is refused there, to follow "<file> is on tmpfs".
inline constexpr const char *kNoStorageBelowPageCache =
    ", which has no storage below its page cache for direct I/O to reach (older kernels refuse "
    "O_DIRECT there with EINVAL; newer ones accept it and buffer as usual)";

} // namespace pio
