// The POSIX file pieces the posix and io_uring backends share (posix_checks.hpp).
#include "posix_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <mpi.h>

#include <cerrno>
#include <cstring>

#include "pio/error.hpp"
#include "pio/memory_fs.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::io {

Descriptor::~Descriptor() {
  if (fd >= 0)
    ::close(fd);
}

DirectAlignment direct_io_alignment(int fd) {
  DirectAlignment a;
  struct statx sx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
      (sx.stx_mask & STATX_DIOALIGN) != 0 && sx.stx_dio_offset_align > 0) {
    a.file = sx.stx_dio_offset_align;
    a.memory = sx.stx_dio_mem_align;
    a.source = "statx STATX_DIOALIGN";
    return a;
  }
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_blksize > 0) {
    a.file = a.memory = st.st_blksize;
    a.source = "its block size, st_blksize";
    return a;
  }
  a.file = a.memory = 4096;
  a.source = "4096 assumed";
  return a;
}

DirectAlignment checked_direct(int fd, const std::string &path) {
  if (const char *name = memory_file_system_of_fd(fd))
    throw Error("open(" + path + ", O_DIRECT): the file is on " + name + kNoStorageBelowPageCache,
                kDirectFix);
  return direct_io_alignment(fd);
}

void refuse_direct_on_memory_file_system(const std::string &test_file) {
  // No directory yet: the open reports it.
  if (const char *name = memory_file_system_at(test_file))
    throw DirectiveError("ODirect",
                         "ODirect on: the test file " + test_file + " would be on " + name +
                             kNoStorageBelowPageCache,
                         kDirectFix);
}

int open_flags(int amode, const std::string &path, const char *word) {
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
    throw Error(std::string("Interface ") + word + " cannot open " + path +
                    " with MPI_MODE_APPEND (the test asks for it)",
                "run this module with Interface mpiio");
  return flags;
}

int open_test_file(const std::string &path, int amode, bool direct,
                   const std::map<std::string, std::string> &hints, const char *word) {
  if (!hints.empty()) {
    std::string keys;
    for (const auto &[k, v] : hints)
      keys += (keys.empty() ? "" : ", ") + k + "=" + v;
    throw Error(std::string("Interface ") + word +
                    " takes no MPI-IO hints, but this test asks for " + keys,
                "remove the Hint lines (a block's and the global ones), or use Interface mpiio");
  }
  int flags = open_flags(amode, path, word);
  if (direct)
    flags |= O_DIRECT;
  const int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) {
    const int err = errno;
    std::string fix = "check that the directory of TestFile exists and is writable";
    if (err == EINVAL && direct)
      fix = std::string("the file system refuses O_DIRECT: ") + kDirectFix;
    throw Error(std::string("open(") + path + (direct ? ", O_DIRECT" : "") +
                    "): " + std::strerror(err),
                fix);
  }
  return fd;
}

void check_direct_alignment(const DirectAlignment &a, const std::string &path, const char *call,
                            const Extent &e, const void *buffer) {
  const std::string what = std::string("O_DIRECT ") + call + " of " + path + " at offset " +
                           std::to_string(e.offset) + ", " + std::to_string(e.length) + " bytes: ";
  const std::string n = std::to_string(a.file);
  if (e.offset % a.file != 0 || e.length % a.file != 0)
    throw Error(what + "offset and length must be multiples of the file system's " + n +
                    "-byte direct-I/O block (" + a.source + ")",
                "choose transfer sizes (BufferSizes, strips, tiles) and a HeaderOffset that are "
                "multiples of " +
                    n + " (4096 always is), or set ODirect off");
  const auto address = reinterpret_cast<std::uintptr_t>(buffer);
  if (a.memory > 0 && address % static_cast<std::uintptr_t>(a.memory) != 0)
    throw Error(what + "the buffer at address " + std::to_string(address) +
                    " is not a multiple of the " + std::to_string(a.memory) +
                    "-byte memory alignment O_DIRECT needs (" + a.source + ")",
                "align the module's buffers to 4096 bytes (the pattern engine's are, when every "
                "extent's length is a multiple of the direct-I/O block), or set ODirect off");
}

std::string transfer_fix(int e, bool direct) {
  if (e == EINVAL && direct)
    return std::string("the file system refused direct I/O for this transfer: ") + kDirectFix;
  if (e == ENOSPC || e == EDQUOT || e == EFBIG)
    return "free space on the file system of TestFile or make the test smaller";
  return "check the file system of TestFile (mounted, writable, healthy)";
}

std::int64_t contiguous_bytes_of(const Transfer &t) {
  // The pattern engine's contiguous transfers: no three type queries inside the timed unit.
  if (t.datatype == MPI_BYTE)
    return t.count;
  MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  mpi_check(MPI_Type_size_x(t.datatype, &size), "MPI_Type_size_x");
  mpi_check(MPI_Type_get_extent_x(t.datatype, &lb, &extent), "MPI_Type_get_extent_x");
  mpi_check(MPI_Type_get_true_extent_x(t.datatype, &true_lb, &true_extent),
            "MPI_Type_get_true_extent_x");
  if (extent != size || true_extent != size || true_lb != 0)
    throw Error("a POSIX transfer's memory must be contiguous bytes, but its datatype has " +
                    std::to_string(size) + " bytes spread over an extent of " +
                    std::to_string(true_extent),
                "pass the data as one contiguous buffer (the pattern engine does so without a "
                "file view), or use Interface mpiio");
  return static_cast<std::int64_t>(size) * t.count;
}

std::int64_t checked_transfer_bytes(const Transfer &t, const char *word) {
  if (t.extents == nullptr || t.extent_count == 0)
    throw Error(std::string("Interface ") + word + ": a transfer of " + std::to_string(t.count) +
                    " elements without its file extents (Transfer::extents): it cannot see an "
                    "MPI file view",
                "pass the file bytes the transfer covers in Transfer::extents, or use Interface "
                "mpiio");
  const std::int64_t bytes = contiguous_bytes_of(t);
  std::int64_t covered = 0;
  for (std::size_t i = 0; i < t.extent_count; ++i)
    covered += t.extents[i].length;
  if (covered != bytes)
    throw Error(std::string("Interface ") + word + ": a transfer of " + std::to_string(bytes) +
                    " bytes in memory whose extents cover " + std::to_string(covered) +
                    " file bytes",
                "make Transfer::extents cover exactly the count x datatype bytes of the buffer");
  return bytes;
}

void fsync_file(int fd, const std::string &path) {
  if (::fsync(fd) != 0) {
    const int err = errno;
    throw Error("fsync of " + path + ": " + std::strerror(err),
                "check the file system of TestFile (a full or failing device reports delayed "
                "write errors here)");
  }
}

std::int64_t file_size(int fd, const std::string &path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    throw Error("fstat of " + path + ": " + std::strerror(err));
  }
  return static_cast<std::int64_t>(st.st_size);
}

std::int64_t checked_seek(MPI_Offset offset, const std::string &path) {
  if (offset < 0)
    throw Error("seek of " + path + " to offset " + std::to_string(offset),
                "seek to an offset of 0 or more");
  return offset;
}

void close_file(Descriptor &d, const std::string &path, bool delete_on_close) {
  const int fd = d.fd;
  d.fd = -1;
  if (fd >= 0 && ::close(fd) != 0) {
    const int err = errno;
    throw Error("close of " + path + ": " + std::strerror(err),
                "check the file system of TestFile (a full or failing device reports "
                "delayed write errors at close)");
  }
  if (delete_on_close && ::unlink(path.c_str()) != 0 && errno != ENOENT) {
    const int err = errno;
    throw Error("unlink of " + path + " (MPI_MODE_DELETE_ON_CLOSE): " + std::strerror(err),
                "check the permissions of TestFile's directory");
  }
}

} // namespace pio::io
