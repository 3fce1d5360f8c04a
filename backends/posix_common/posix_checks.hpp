#pragma once
// What the backends that move bytes with POSIX file descriptors share (posix and io_uring link
// it): open(2) flags from MPI-IO's amode, O_DIRECT's refusals and alignment, a transfer's bytes
// checked against its extents, the fixes for failed calls, and a descriptor closed on
// destruction. Private to the backends; tests link it.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>

#include "pio/io/transfer.hpp"

namespace pio::io {

/// The fix for a file system that refuses (or cannot honour) O_DIRECT.
inline constexpr const char *kDirectFix = "set ODirect off, or put TestFile on a file system with "
                                          "direct I/O (ext4, xfs; /var/tmp here)";

/// What O_DIRECT asks of a transfer on one file (bytes; 0 = not open with O_DIRECT).
struct DirectAlignment {
  std::int64_t file = 0;   ///< file offsets and lengths are multiples of this
  std::int64_t memory = 0; ///< buffer addresses are multiples of this
  const char *source = ""; ///< where the figures come from, for messages
};

/// The alignment O_DIRECT needs on the open descriptor fd: the file system's direct-I/O
/// alignment where the kernel reports it (statx STATX_DIOALIGN), else its block size (st_blksize)
/// for both.
DirectAlignment direct_io_alignment(int fd);

/// The alignment O_DIRECT needs on fd (open with O_DIRECT), after refusing a memory file system
/// (tmpfs, ramfs) with a pio::Error naming it.
DirectAlignment checked_direct(int fd, const std::string &path);

/// Pre-flight: a pio::DirectiveError on ODirect when `test_file` would be on tmpfs or ramfs (its
/// directory's file system), which has no storage below its page cache for O_DIRECT to reach.
void refuse_direct_on_memory_file_system(const std::string &test_file);

/// open(2) flags for MPI-IO's amode (O_CLOEXEC, no O_DIRECT); throws for what POSIX cannot
/// honour (MPI_MODE_APPEND), naming Interface `word`.
int open_flags(int amode, const std::string &path, const char *word);

/// The descriptor of path opened as MPI-IO's amode asks (O_DIRECT with direct) by Interface
/// `word`, which takes no MPI-IO hints (a non-empty `hints` is refused); throws naming the call
/// and the fix.
int open_test_file(const std::string &path, int amode, bool direct,
                   const std::map<std::string, std::string> &hints, const char *word);

/// Throws when O_DIRECT cannot take extent e of `call` (pwrite, pread, ...) on path from buffer;
/// for a file open with O_DIRECT (a.file > 0): call check_direct.
void check_direct_alignment(const DirectAlignment &a, const std::string &path, const char *call,
                            const Extent &e, const void *buffer);

/// check_direct_alignment where the file is open with O_DIRECT; inline, as it runs per transfer.
inline void check_direct(const DirectAlignment &a, const std::string &path, const char *call,
                         const Extent &e, const void *buffer) {
  if (a.file > 0)
    check_direct_alignment(a, path, call, e, buffer);
}

/// The fix for a failed read or write with errno e.
std::string transfer_fix(int e, bool direct);

/// The bytes of a transfer without a file view: count x datatype, which must be contiguous
/// memory, covered exactly by t.extents (both checked; Interface `word` named in the errors).
std::int64_t checked_transfer_bytes(const Transfer &t, const char *word);

/// checked_transfer_bytes, inline for the pattern engine's transfers (count bytes in one
/// extent of that length), which every unit makes.
inline std::int64_t extent_transfer_bytes(const Transfer &t, const char *word) {
  if (t.datatype == MPI_BYTE && t.extent_count == 1 && t.extents != nullptr &&
      t.extents->length == t.count)
    return t.count;
  return checked_transfer_bytes(t, word);
}

/// The bytes of count elements of t.datatype, which must be contiguous memory.
std::int64_t contiguous_bytes_of(const Transfer &t);

/// fsync of fd (`path` in the error).
void fsync_file(int fd, const std::string &path);

/// fstat's st_size of fd (`path` in the error).
std::int64_t file_size(int fd, const std::string &path);

/// The individual file pointer set to offset, which must not be negative (`path` in the error).
std::int64_t checked_seek(MPI_Offset offset, const std::string &path);

/// A file descriptor closed on destruction.
struct Descriptor {
  int fd = -1;
  explicit Descriptor(int d) : fd(d) {}
  ~Descriptor();
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
};

/// Closes d's descriptor (d.fd is -1 afterwards), then with delete_on_close unlinks path
/// (MPI_MODE_DELETE_ON_CLOSE: the first rank removes it); throws naming the call that failed.
void close_file(Descriptor &d, const std::string &path, bool delete_on_close);

} // namespace pio::io
