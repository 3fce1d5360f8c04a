#pragma once
/// The namespace calls of Backend (Capability::Metadata) made through POSIX, as IOR's
/// aiori_posix_* helpers serve several of its backends: a backend whose stat, remove, mkdir,
/// rmdir, readdir and sync are POSIX's derives from PosixNamespace (the posix and mpiio backends
/// do, and so may a site's: docs/examples/mmap_backend).

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "pio/io/backend.hpp"

namespace pio::io {

/// Backend with POSIX's namespace calls; open() is the deriving backend's.
class PosixNamespace : public Backend {
public:
  /// lstat.
  std::optional<FileStat> stat(const char *path) override {
    struct stat st;
    if (::lstat(path, &st) != 0) {
      if (errno == ENOENT)
        return std::nullopt;
      fail("lstat", path);
    }
    FileStat f;
    f.type = S_ISREG(st.st_mode)   ? FileStat::Type::File
             : S_ISDIR(st.st_mode) ? FileStat::Type::Directory
                                   : FileStat::Type::Other;
    f.size = static_cast<std::int64_t>(st.st_size);
    return f;
  }
  /// unlink.
  bool remove(const char *path) override {
    if (::unlink(path) == 0)
      return true;
    if (errno == ENOENT)
      return false;
    fail("unlink", path);
  }
  /// mkdir(path, 0755).
  void mkdir(const char *path) override {
    if (::mkdir(path, 0755) != 0)
      fail("mkdir", path);
  }
  /// rmdir.
  bool rmdir(const char *path) override {
    if (::rmdir(path) == 0)
      return true;
    if (errno == ENOENT)
      return false;
    fail("rmdir", path);
  }
  /// opendir / readdir / closedir; the entry's type from d_type.
  void readdir(const char *path,
               const std::function<void(const char *name, EntryType type)> &each) override {
    DIR *d = ::opendir(path);
    if (!d)
      fail("opendir", path);
    struct Closer {
      DIR *d;
      ~Closer() { ::closedir(d); }
    } closer{d};
    while (const dirent *e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
        continue;
      each(e->d_name, e->d_type == DT_REG       ? EntryType::File
                      : e->d_type == DT_DIR     ? EntryType::Directory
                      : e->d_type == DT_UNKNOWN ? EntryType::Unknown
                                                : EntryType::Other);
    }
  }
  /// sync(2) for null, else syncfs on a descriptor of path.
  void sync(const char *path) override {
    if (!path) {
      ::sync();
      return;
    }
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      fail("open", path);
    const int rc = ::syncfs(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) {
      errno = err;
      fail("syncfs on", path);
    }
  }

protected:
  /// Throws the failure of call on path with errno's text.
  [[noreturn]] static void fail(const char *call, const char *path) {
    const int err = errno;
    throw Error(std::string(call) + " " + path + ": " + std::strerror(err),
                err == ENOSPC || err == EDQUOT
                    ? "free space or inodes on the file system, or make the test smaller"
                    : "check the file system (mounted, writable, permissions); nothing else may "
                      "change the test's files during the run");
  }
};

} // namespace pio::io
