// The posix backend's Interface: one pwrite or pread per extent of a transfer (looped on short
// transfers), or at the individual file pointer; fsync for SyncWrites. Errors name the call, the
// path, the offset and errno's text.
#include "posix_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "pio/error.hpp"
#include "posix_checks.hpp"

namespace pio::io {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

/// One extent, looped until all its bytes moved or (read) the end of file; returns bytes moved.
std::int64_t move_extent(int fd, const std::string &path, bool write, const Extent &e,
                         std::uint8_t *p, bool direct) {
  std::int64_t done = 0;
  while (done < e.length) {
    const auto want = static_cast<size_t>(e.length - done);
    const off_t at = static_cast<off_t>(e.offset + done);
    const ssize_t n = write ? ::pwrite(fd, p + done, want, at) : ::pread(fd, p + done, want, at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      const int err = errno;
      throw Error(std::string(write ? "pwrite" : "pread") + " of " + path + " at offset " +
                      std::to_string(at) + " (" + std::to_string(want) +
                      " bytes): " + errno_text(err),
                  transfer_fix(err, direct));
    }
    if (n == 0) {
      if (!write)
        break; // end of file: a short read, as MPI-IO reports it
      throw Error("pwrite of " + path + " at offset " + std::to_string(at) + " (" +
                      std::to_string(want) + " bytes) wrote nothing",
                  transfer_fix(ENOSPC, direct));
    }
    done += n;
  }
  return done;
}

[[noreturn]] void no_such_call(const Transfer &t, const char *why) {
  throw Error(std::string("Interface posix has no ") + to_string(t.completion) + " " +
                  to_string(t.direction) + " on the " + to_string(t.positioning) + ": " + why,
              "use explicit offsets with blocking or non-blocking completion, or Interface mpiio");
}

} // namespace

std::int64_t PosixIo::move(const Transfer &t) {
  if (t.positioning == Positioning::SharedPointer)
    no_such_call(t, "POSIX has no file pointer shared by the ranks");
  if (t.count < 0)
    throw Error("a transfer of " + std::to_string(t.count) + " elements",
                "pass a count of 0 or more");
  if (t.count == 0)
    return 0;
  if (t.positioning == Positioning::IndividualPointer) {
    // Contiguous bytes at the pointer, which moves past what was moved (lseek + write).
    const Extent at{pointer_, contiguous_bytes_of(t)};
    Transfer one = t;
    one.positioning = Positioning::ExplicitOffset;
    one.extents = &at;
    one.extent_count = 1;
    const bool counted = one.count_moved;
    one.count_moved = true;
    const std::int64_t elements = move(one);
    pointer_ += at.length / t.count * elements;
    return counted ? elements : t.count;
  }
  const std::int64_t bytes = extent_transfer_bytes(t, "posix");
  const bool write = t.direction == Direction::Write;
  auto *p = static_cast<std::uint8_t *>(t.buffer);
  std::int64_t moved = 0;
  for (std::size_t i = 0; i < t.extent_count; ++i) {
    const Extent &e = t.extents[i];
    check_direct(direct_, path_, write ? "pwrite" : "pread", e, p);
    moved += move_extent(fd_, path_, write, e, p, direct_.file > 0);
    p += e.length;
  }
  if (!t.count_moved)
    return t.count;
  return moved / (bytes / t.count); // whole elements, as MPI_Get_count counts them
}

std::int64_t PosixIo::start(const Transfer &t) {
  switch (t.completion) {
  case Completion::Blocking:
    return move(t);
  case Completion::NonBlocking: {
    if (t.request == nullptr)
      throw Error("a non-blocking transfer needs Transfer::request",
                  "point it at the MPI_Request the transfer's completion waits on");
    const std::int64_t moved = move(t);
    *t.request = MPI_REQUEST_NULL; // done already: MPI_Wait on it returns at once
    done_[t.request] = moved;
    return 0;
  }
  case Completion::Split:
    no_such_call(t, "a split collective needs MPI-IO's begin/end pairs");
  }
  return 0;
}

std::int64_t PosixIo::finish(const Transfer &t) {
  switch (t.completion) {
  case Completion::Blocking:
    return t.count;
  case Completion::NonBlocking: {
    const auto it = done_.find(t.request);
    const std::int64_t moved = it == done_.end() ? t.count : it->second;
    if (it != done_.end())
      done_.erase(it);
    return moved;
  }
  case Completion::Split:
    no_such_call(t, "a split collective needs MPI-IO's begin/end pairs");
  }
  return 0;
}

void PosixIo::wait_all(MPI_Request *requests, int n) {
  for (int i = 0; i < n; ++i)
    done_.erase(requests + i);
}

void PosixIo::sync() { fsync_file(fd_, path_); }

void PosixIo::seek(MPI_Offset offset) { pointer_ = checked_seek(offset, path_); }

std::int64_t PosixIo::size() { return file_size(fd_, path_); }

} // namespace pio::io
