// The posix backend (IOR's POSIX backend, aiori-POSIX.c, is the model): each rank open(2)s the
// path itself with the flags MPI-IO's amode asks for (O_DIRECT with `ODirect on`), PosixIo over
// the descriptor, and POSIX's namespace calls.
#include "posix_backend.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pio/io/posix_namespace.hpp"
#include "posix_io.hpp"

namespace pio::io {

namespace {

/// open(2) flags for MPI-IO's amode; throws for what POSIX cannot honour.
int open_flags(int amode, const std::string &path) {
  int flags = O_CLOEXEC;
  if (amode & MPI_MODE_RDONLY)
    flags |= O_RDONLY;
  else if (amode & MPI_MODE_WRONLY)
    flags |= O_WRONLY;
  else
    flags |= O_RDWR;
  if (amode & MPI_MODE_CREATE)
    flags |= O_CREAT;
  if (amode & MPI_MODE_EXCL)
    flags |= O_EXCL;
  if (amode & MPI_MODE_APPEND)
    throw Error("Interface posix cannot open " + path +
                    " with MPI_MODE_APPEND (the test asks for it)",
                "run this module with Interface mpiio");
  return flags;
}

/// tmpfs (and ramfs) accept O_DIRECT since Linux 6.6 but keep the data in the page cache: there
/// is no storage to bypass, so ODirect would measure buffered I/O under another name.
void refuse_memory_file_system(int fd, const std::string &path) {
  struct statfs fs;
  if (::fstatfs(fd, &fs) != 0)
    return;
  if (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC)
    throw Error("open(" + path + ", O_DIRECT): the file is on " +
                    (fs.f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs") +
                    ", which has no storage below its page cache for direct I/O to reach "
                    "(older kernels refuse O_DIRECT there with EINVAL; newer ones accept it and "
                    "buffer as usual)",
                kDirectFix);
}

/// A descriptor closed on destruction.
struct Descriptor {
  int fd = -1;
  explicit Descriptor(int d) : fd(d) {}
  ~Descriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
};

/// The alignment O_DIRECT needs on fd, after refusing a memory file system.
DirectAlignment checked_direct(int fd, const std::string &path) {
  refuse_memory_file_system(fd, path);
  return direct_io_alignment(fd);
}

/// The open descriptor of one file (closed on destruction, also when the constructor's O_DIRECT
/// checks throw). MPI_MODE_DELETE_ON_CLOSE: each rank unlinks the path after its close (the
/// first one removes it; the others' descriptors stay valid until they close, as POSIX keeps an
/// unlinked file open).
class PosixFile final : public OpenFile {
public:
  PosixFile(int fd, const std::string &path, bool direct, bool delete_on_close)
      : fd_(fd), path_(path), delete_on_close_(delete_on_close),
        io_(fd, path, direct ? checked_direct(fd, path) : DirectAlignment{}) {}
  Interface &io() override { return io_; }
  void close() override {
    const int fd = fd_.fd;
    fd_.fd = -1;
    if (fd >= 0 && ::close(fd) != 0) {
      const int err = errno;
      throw Error("close of " + path_ + ": " + std::strerror(err),
                  "check the file system of TestFile (a full or failing device reports "
                  "delayed write errors at close)");
    }
    if (delete_on_close_ && ::unlink(path_.c_str()) != 0 && errno != ENOENT) {
      const int err = errno;
      throw Error("unlink of " + path_ + " (MPI_MODE_DELETE_ON_CLOSE): " + std::strerror(err),
                  "check the permissions of TestFile's directory");
    }
  }

private:
  Descriptor fd_;
  std::string path_;
  bool delete_on_close_;
  PosixIo io_;
};

class PosixBackend final : public PosixNamespace {
public:
  explicit PosixBackend(const Settings &options) : direct_(options.flag("ODirect")) {}

  /// Refuses MPI-IO hints and amode flags POSIX cannot honour; O_DIRECT with ODirect on.
  std::unique_ptr<OpenFile> open(MPI_Comm, const std::string &path, int amode,
                                 const std::map<std::string, std::string> &hints) override {
    if (!hints.empty()) {
      std::string keys;
      for (const auto &[k, v] : hints)
        keys += (keys.empty() ? "" : ", ") + k + "=" + v;
      throw Error("Interface posix takes no MPI-IO hints, but this test asks for " + keys,
                  "remove the Hint lines (a block's and the global ones), or use Interface mpiio");
    }
    int flags = open_flags(amode, path);
    if (direct_)
      flags |= O_DIRECT;
    const int fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0) {
      const int err = errno;
      std::string fix = "check that the directory of TestFile exists and is writable";
      if (err == EINVAL && direct_)
        fix = std::string("the file system refuses O_DIRECT: ") + kDirectFix;
      throw Error(std::string("open(") + path + (direct_ ? ", O_DIRECT" : "") +
                      "): " + std::strerror(err),
                  fix);
    }
    return std::make_unique<PosixFile>(fd, path, direct_, (amode & MPI_MODE_DELETE_ON_CLOSE) != 0);
  }

private:
  bool direct_;
};

} // namespace

BackendInfo posix_info() {
  using C = Capability;
  BackendInfo b("posix", make_backend<PosixBackend>);
  b.summary = "POSIX: each rank open / pwrite / pread / fsync / close on the file; the "
              "individual file pointer as lseek + write; collective transfers run independently";
  b.reference = "IOR's POSIX backend (aiori-POSIX.c); mdtest's default API";
  b.capabilities = {C::IndividualPointers, C::ODirect, C::Metadata};
  b.options = {BackendOption{
      DirectiveSpec{"ODirect", DirectiveType::Flag, "off",
                    "open the test files with O_DIRECT (every transfer and HeaderOffset a "
                    "multiple of the file system's direct-I/O block; refused on tmpfs and where "
                    "the file system has no direct I/O)"},
      true, C::ODirect}};
  return b;
}

} // namespace pio::io
