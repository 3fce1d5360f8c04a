#pragma once
// The posix backend's Interface (private to the backend; tests link it), IOR's POSIX backend
// being the model: each rank opens the harness's file itself and every extent of a transfer
// becomes one pwrite or pread, looped until all its bytes moved; a transfer on the individual
// file pointer moves contiguous bytes at the pointer (lseek + write, as IOR's POSIX backend
// makes it, as one pwrite/pread there). No file views, no shared pointer: Collective transfers run
// independently, NonBlocking ones complete in start(). `ODirect on` opens with O_DIRECT and
// checks every extent and buffer against the file's direct-I/O alignment.

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "pio/io/interface.hpp"
#include "posix_checks.hpp"

namespace pio::io {

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
  /// Sets this rank's file pointer (bytes: POSIX has no file view).
  void seek(MPI_Offset offset) override;

private:
  /// The transfer's bytes, moved extent by extent; returns the elements moved.
  std::int64_t move(const Transfer &t);

  int fd_;
  std::string path_;
  DirectAlignment direct_;
  std::int64_t pointer_ = 0;                         // the individual file pointer, in bytes
  std::map<const MPI_Request *, std::int64_t> done_; // NonBlocking: elements moved by start()
};

} // namespace pio::io
