#pragma once
/// The POSIX interface of the I/O seam (IOR's POSIX backend is the model): each rank opens the
/// harness's file itself and every extent of a transfer becomes one pwrite or pread, looped
/// until all its bytes moved. No file views, no file pointers, no collective calls: Collective
/// transfers run independently, NonBlocking ones complete in start(). `ODirect on` opens with
/// O_DIRECT and checks every extent and buffer against the file's direct-I/O alignment.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "pio/io/interface.hpp"
#include "pio/io/open_file.hpp"

namespace pio::io {

/// What O_DIRECT asks of a transfer on one file (bytes; 0 = not open with O_DIRECT).
struct DirectAlignment {
  std::int64_t file = 0;   ///< file offsets and lengths are multiples of this
  std::int64_t memory = 0; ///< buffer addresses are multiples of this
  const char *source = ""; ///< where the figures come from, for messages
};

/// POSIX calls on one file descriptor (not owned: PosixFile opens and closes it).
class PosixIo final : public Interface {
public:
  /// Transfers on descriptor fd of `path` (named in errors). When the file is open with
  /// O_DIRECT, `direct` is its alignment (direct_io_alignment); zero otherwise.
  PosixIo(int fd, std::string path, DirectAlignment direct = {})
      : fd_(fd), path_(std::move(path)), direct_(direct) {}
  std::int64_t start(const Transfer &t) override;
  std::int64_t finish(const Transfer &t) override;
  void wait_all(MPI_Request *requests, int n) override;
  /// fsync of the descriptor (this rank's writes only; not collective).
  void sync() override;
  /// fstat's st_size.
  std::int64_t size() override;

private:
  /// The transfer's bytes, moved extent by extent; returns the elements moved.
  std::int64_t move(const Transfer &t);

  int fd_;
  std::string path_;
  DirectAlignment direct_;
  std::map<const MPI_Request *, std::int64_t> done_; // NonBlocking: elements moved by start()
};

/// Opens `path` for this rank with open(2): O_RDWR / O_RDONLY / O_WRONLY, O_CREAT and O_EXCL as
/// MPI-IO's amode says (MPI_MODE_CREATE, MPI_MODE_EXCL), O_DIRECT when o.o_direct. Refuses
/// MPI-IO hints and amode flags POSIX cannot honour. Throws pio::Error naming the call, the path
/// and errno's text, with a fix (O_DIRECT on a file system without it: tmpfs).
std::unique_ptr<OpenFile> open_posix(const Options &o, const std::string &path, int amode,
                                     const std::map<std::string, std::string> &hints);

/// The alignment O_DIRECT needs on the open descriptor fd: the file system's direct-I/O
/// alignment where the kernel reports it (statx STATX_DIOALIGN), else its block size (st_blksize)
/// for both.
DirectAlignment direct_io_alignment(int fd);

} // namespace pio::io
