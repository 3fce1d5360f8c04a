#pragma once
// The io_uring backend's Interface over one file (private to the backend; tests link it): every
// extent of a transfer is one read or write operation queued on the backend's Ring, so a unit's
// extents, and with the pattern engine's overlapping units several units' transfers, are in flight
// together up to QueueDepth. Blocking transfers wait for their operations in start();
// NonBlocking ones return at once and finish() / wait_all() wait for them (keyed by the request,
// which is set to MPI_REQUEST_NULL). The individual file pointer works as posix's (contiguous bytes
// at the pointer, which moves past them). No file views, no shared pointer, no collective calls:
// Collective transfers run independently. Each operation started inside a work unit reports its
// latency, submission to completion, to Interface::report_latencies' sink.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pio/io/interface.hpp"
#include "posix_checks.hpp"
#include "ring.hpp"

namespace pio::io {

/// io_uring operations on one open descriptor (not owned: UringFile opens, drains and closes it).
class UringIo final : public Interface {
public:
  /// Transfers on descriptor fd of `path` (named in errors) through ring; file_index is fd's
  /// index in the ring's file table (-1: none). `direct`: the file's O_DIRECT alignment (zero
  /// when not open with O_DIRECT).
  UringIo(Ring &ring, int fd, int file_index, std::string path, DirectAlignment direct = {})
      : ring_(ring), fd_(fd), file_index_(file_index), path_(std::move(path)), direct_(direct) {}
  /// Waits for what is still in flight (nothing may point at its groups afterwards).
  ~UringIo() override { ring_.drain(fd_); }
  std::int64_t start(const Transfer &t) override;
  std::int64_t finish(const Transfer &t) override;
  void wait_all(MPI_Request *requests, int n) override;
  /// fsync of the descriptor after every operation on the ring completed.
  void sync() override;
  /// fstat's st_size.
  std::int64_t size() override;
  /// Sets this rank's file pointer (bytes).
  void seek(MPI_Offset offset) override;
  /// QueueDepth.
  int queue_depth() const override { return static_cast<int>(ring_.depth()); }

private:
  /// A non-blocking transfer's operations and what finish() reports, under its request.
  struct Pending {
    const MPI_Request *request = nullptr; ///< kept when finished: the request's next transfer
    bool live = false;                    ///< started, not finished
    OpGroup group;
    std::int64_t bytes = 0; ///< count x datatype
    int count = 0;
    bool count_moved = false;
  };
  /// The slot of request (live or finished), nullptr if it has none.
  Pending *slot_of(const MPI_Request *request);
  /// The slot of request, else a finished slot (or a new one) taken for it.
  Pending &claim(const MPI_Request *request);
  /// Queues every extent of t (explicit offsets, or the pointer's contiguous bytes) for group;
  /// returns the transfer's bytes.
  std::int64_t queue(const Transfer &t, OpGroup &group);
  /// The elements to report for bytes of a transfer of count elements that moved `moved`.
  static std::int64_t elements(std::int64_t bytes, int count, bool count_moved, std::int64_t moved);

  Ring &ring_;
  int fd_;
  int file_index_;
  std::string path_;
  DirectAlignment direct_;
  std::int64_t pointer_ = 0; // the individual file pointer, in bytes
  // NonBlocking transfers by request: slots on the heap, since the ring's operations point at
  // their groups, reused without an allocation per transfer (the pattern engine's units cycle
  // through QueueDepth requests; a search starts at the last slot found).
  std::vector<std::unique_ptr<Pending>> pending_;
  std::size_t next_ = 0;
};

} // namespace pio::io
