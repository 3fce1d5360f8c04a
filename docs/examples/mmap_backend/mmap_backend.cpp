// An I/O backend built out of tree (docs/guides/writing-a-backend.md): `Interface mmap` maps each
// test file into memory (mmap MAP_SHARED) on every rank and moves each extent of a transfer with
// memcpy; SyncWrites is msync(MS_SYNC). Its namespace calls are POSIX's (PosixNamespace), so the
// metadata family runs through it too. One option: MmapPopulate (MAP_POPULATE).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "pio/io/backend_export.hpp"
#include "pio/io/posix_namespace.hpp"
#include "pio/mpi_handles.hpp"

namespace {

using pio::Error;
namespace io = pio::io;

[[noreturn]] void fail_errno(const std::string &what, const std::string &path) {
  const int err = errno;
  throw Error(what + " of " + path + ": " + std::strerror(err),
              "check the file system of TestFile (mounted, writable, space left)");
}

/// The bytes of a transfer's memory: count elements of a datatype that must be contiguous
/// bytes, as the pattern engine hands them without a file view.
std::int64_t contiguous_bytes(const io::Transfer &t) {
  MPI_Count size = 0, lb = 0, extent = 0;
  pio::mpi_check(MPI_Type_size_x(t.datatype, &size), "MPI_Type_size_x");
  pio::mpi_check(MPI_Type_get_true_extent_x(t.datatype, &lb, &extent),
                 "MPI_Type_get_true_extent_x");
  if (lb != 0 || extent != size)
    throw Error("Interface mmap takes memory as contiguous bytes",
                "hand it a contiguous buffer (the pattern engine does)");
  return static_cast<std::int64_t>(size) * t.count;
}

/// One rank's mapping of one open file; it grows (file and mapping) as writes reach further.
class MmapIo final : public io::Interface {
public:
  MmapIo(int fd, std::string path, bool writable, bool populate)
      : fd_(fd), path_(std::move(path)), writable_(writable), populate_(populate) {}
  ~MmapIo() override { unmap(); }
  MmapIo(const MmapIo &) = delete;
  MmapIo &operator=(const MmapIo &) = delete;

  std::int64_t start(const io::Transfer &t) override {
    if (t.positioning != io::Positioning::ExplicitOffset || t.completion == io::Completion::Split)
      throw Error(std::string("Interface mmap has no ") + io::to_string(t.completion) +
                      " transfer on the " + io::to_string(t.positioning),
                  "use explicit offsets with blocking or non-blocking completion");
    if (t.count == 0)
      return 0;
    if (t.extents == nullptr)
      throw Error("an mmap transfer without its file extents (Transfer::extents)",
                  "pass the file bytes the transfer covers");
    const std::int64_t bytes = contiguous_bytes(t);
    const bool write = t.direction == io::Direction::Write;
    auto *memory = static_cast<char *>(t.buffer);
    std::int64_t moved = 0, end = 0;
    for (std::size_t k = 0; k < t.extent_count; ++k)
      end = std::max(end, t.extents[k].offset + t.extents[k].length);
    cover(end, write);
    for (std::size_t k = 0; k < t.extent_count; ++k) {
      const io::Extent &e = t.extents[k];
      // A read stops at the end of the file, as pread's does.
      const std::int64_t n =
          write ? e.length : std::max<std::int64_t>(0, std::min(e.length, mapped_ - e.offset));
      if (write)
        std::memcpy(map_ + e.offset, memory + moved, static_cast<std::size_t>(n));
      else if (n > 0)
        std::memcpy(memory + moved, map_ + e.offset, static_cast<std::size_t>(n));
      moved += n;
      if (n < e.length)
        break;
    }
    if (t.completion == io::Completion::NonBlocking)
      *t.request = MPI_REQUEST_NULL; // done in the call
    if (!t.count_moved || moved == bytes)
      return t.completion == io::Completion::NonBlocking ? 0 : t.count;
    return moved / (bytes / t.count);
  }
  std::int64_t finish(const io::Transfer &t) override { return t.count; }
  void wait_all(MPI_Request *, int) override {}
  /// msync of what this rank mapped: its writes reach the file.
  void sync() override {
    if (map_ && ::msync(map_, static_cast<std::size_t>(mapped_), MS_SYNC) != 0)
      fail_errno("msync", path_);
  }
  std::int64_t size() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0)
      fail_errno("fstat", path_);
    return static_cast<std::int64_t>(st.st_size);
  }
  /// The file grows to the test's span before its first transfer.
  void shape(std::int64_t bytes) override {
    if (writable_)
      cover(bytes, true);
  }

  /// Unmaps (the file stays open: the caller closes it).
  void unmap() {
    if (map_)
      ::munmap(map_, static_cast<std::size_t>(mapped_));
    map_ = nullptr;
    mapped_ = 0;
  }

private:
  /// Maps at least [0, end): a write first grows the file (posix_fallocate never shrinks it, so
  /// ranks growing one shared file to different ends lose nothing); a read maps what there is.
  void cover(std::int64_t end, bool write) {
    if (write && end > size()) {
      const int rc = ::posix_fallocate(fd_, 0, static_cast<off_t>(end));
      if (rc != 0) {
        errno = rc;
        fail_errno("posix_fallocate", path_);
      }
    }
    const std::int64_t want = write ? end : std::min(end, size());
    if (want <= mapped_)
      return;
    unmap();
    const int prot = PROT_READ | (writable_ ? PROT_WRITE : 0);
    void *p = ::mmap(nullptr, static_cast<std::size_t>(want), prot,
                     MAP_SHARED | (populate_ ? MAP_POPULATE : 0), fd_, 0);
    if (p == MAP_FAILED)
      fail_errno("mmap", path_);
    map_ = static_cast<char *>(p);
    mapped_ = want;
  }

  int fd_;
  std::string path_;
  bool writable_, populate_;
  char *map_ = nullptr;
  std::int64_t mapped_ = 0;
};

/// The open file: its descriptor and mapping, closed (and, with MPI_MODE_DELETE_ON_CLOSE,
/// unlinked) by close() or, without throwing, on destruction.
class MmapFile final : public io::OpenFile {
public:
  MmapFile(int fd, const std::string &path, bool writable, bool populate, bool delete_on_close)
      : fd_(fd), path_(path), delete_on_close_(delete_on_close), io_(fd, path, writable, populate) {
  }
  ~MmapFile() override {
    io_.unmap();
    if (fd_ >= 0)
      ::close(fd_);
  }
  io::Interface &io() override { return io_; }
  void close() override {
    io_.unmap();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
      fail_errno("close", path_);
    if (delete_on_close_ && ::unlink(path_.c_str()) != 0 && errno != ENOENT)
      fail_errno("unlink", path_);
  }

private:
  int fd_;
  std::string path_;
  bool delete_on_close_;
  MmapIo io_;
};

class MmapBackend final : public io::PosixNamespace {
public:
  explicit MmapBackend(const pio::Settings &options) : populate_(options.flag("MmapPopulate")) {}

  std::unique_ptr<io::OpenFile> open(MPI_Comm, const std::string &path, int amode,
                                     const std::map<std::string, std::string> &) override {
    // A shared writable mapping needs the file open for reading too.
    const bool writable = (amode & MPI_MODE_RDONLY) == 0;
    int flags = O_CLOEXEC | (writable ? O_RDWR : O_RDONLY);
    if (amode & MPI_MODE_CREATE)
      flags |= O_CREAT;
    if (amode & MPI_MODE_EXCL)
      flags |= O_EXCL;
    const int fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0)
      fail_errno("open", path);
    return std::make_unique<MmapFile>(fd, path, writable, populate_,
                                      (amode & MPI_MODE_DELETE_ON_CLOSE) != 0);
  }

private:
  bool populate_;
};

io::BackendInfo mmap_info() {
  io::BackendInfo b("mmap", io::make_backend<MmapBackend>);
  b.summary = "each rank maps the file (mmap MAP_SHARED) and copies each extent with memcpy; "
              "msync for SyncWrites; POSIX's namespace calls";
  b.reference = "docs/examples/mmap_backend (an out-of-tree example)";
  b.capabilities = {io::Capability::Metadata};
  b.options = {io::BackendOption{
      pio::DirectiveSpec{"MmapPopulate", pio::DirectiveType::Flag, "off",
                         "map with MAP_POPULATE: the kernel faults every page in at mmap"}}};
  return b;
}

} // namespace

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{mmap_info()})
