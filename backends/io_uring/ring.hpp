#pragma once
// One io_uring (liburing) of the io_uring backend, shared by the files a block opens on a rank:
// at most QueueDepth reads and writes in flight, queued without a system call and submitted
// together when the ring is full or a transfer waits (many per io_uring_enter), each completion
// accounted to its transfer's OpGroup, a short one resubmitted for its remainder, a failed one
// kept as the group's error naming the call, the file and the offset. Private to the backend;
// tests link it.

#include <liburing.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "pio/io/interface.hpp"

namespace pio::io {

/// The ring's setup, from the backend's options.
struct RingSetup {
  unsigned depth = 1;              ///< QueueDepth: operations in flight at most
  bool sq_poll = false;            ///< SqPoll: a kernel thread polls the submission queue
  bool registered_files = false;   ///< RegisteredFiles: descriptors in the ring's file table
  bool registered_buffers = false; ///< RegisteredBuffers: data through buffers registered once
};

/// What one transfer's operations came to: a blocking transfer's lives on its stack, a
/// non-blocking one's until its finish.
struct OpGroup {
  int pending = 0;        ///< operations queued or in flight
  std::int64_t moved = 0; ///< bytes its completed operations moved
  std::string error;      ///< the first failure, "" if none
  std::string fix;        ///< how to fix it
};

/// One read or write of a file.
struct OpRequest {
  bool write = false;
  int fd = -1;                       ///< the file's descriptor
  int file_index = -1;               ///< its index in the ring's file table (-1: not registered)
  std::uint8_t *buffer = nullptr;    ///< memory
  std::int64_t length = 0;           ///< bytes
  std::int64_t offset = 0;           ///< file offset
  const std::string *path = nullptr; ///< for errors (outlives the operation)
  bool direct = false;               ///< the file is open with O_DIRECT (for the fix)
};

/// The io_uring and the operations in it. Not thread-safe; one per backend per rank.
class Ring {
public:
  /// io_uring_queue_init_params with QueueDepth entries (SQPOLL when asked), the file table and
  /// the buffers when asked. A refusal throws a pio::DirectiveError naming the option at fault
  /// (SqPoll, RegisteredFiles, RegisteredBuffers, QueueDepth) or Interface (no io_uring here).
  explicit Ring(const RingSetup &setup);
  /// Completes every operation, then io_uring_queue_exit (and the buffers' unmapping).
  ~Ring();
  Ring(const Ring &) = delete;
  Ring &operator=(const Ring &) = delete;

  /// QueueDepth.
  unsigned depth() const { return depth_; }
  /// The setup it was made with.
  const RingSetup &setup() const { return setup_; }
  /// fd's index in the ring's file table, or -1 without RegisteredFiles (or a full table).
  int register_file(int fd);
  /// Frees index (from register_file; -1 is ignored). Call after drain(fd).
  void unregister_file(int index) noexcept;
  /// Queues op for `group` (first submitting and reaping while every slot is busy); its latency
  /// goes to sink when it completes (nullptr: not timed). With RegisteredBuffers a write's bytes
  /// are copied into the slot's buffer here, a read's out of it when it completes.
  void queue(const OpRequest &op, OpGroup &group, LatencySink *sink);
  /// Submits what is queued and reaps completions until group has none pending; then throws its
  /// error, if any.
  void wait(OpGroup &group);
  /// Operations of group still in flight report to nobody (their group is going away).
  void abandon(const OpGroup &group) noexcept;
  /// Completes every operation on fd (its file is closing), without throwing.
  void drain(int fd) noexcept;
  /// Submits and completes everything in flight (a flush waits for the writes), throwing on a
  /// failure of io_uring_enter itself.
  void drain_all();

private:
  using Clock = std::chrono::steady_clock;
  /// One slot: an operation in flight and, with RegisteredBuffers, its buffer.
  struct Op {
    OpRequest req;                // the part still to move
    std::int64_t done = 0;        // bytes moved so far
    std::uint8_t *user = nullptr; // the caller's memory (a read's copy-out)
    OpGroup *group = nullptr;     // nullptr: abandoned
    LatencySink *sink = nullptr;
    Clock::time_point submitted{};
    bool in_use = false;
  };
  /// Prepares slot i's SQE for what is left of its operation.
  void prepare(unsigned i);
  /// Notes the submission time of what is queued and clears the queue (the submit follows).
  void stamp_queued();
  /// Submits what is queued without reaping anything.
  void submit_queued();
  /// Submits what is queued, waits for wait_nr completions, reaps every completion there is.
  void submit_and_reap(unsigned wait_nr);
  /// Accounts completion res of slot i (resubmitting a short one's remainder).
  void complete(unsigned i, int res, Clock::time_point now);
  /// Frees slot i after its operation ended.
  void release(unsigned i, Clock::time_point now);
  /// Makes every slot's registered buffer at least `bytes` long (with nothing in flight).
  void grow_buffers(std::int64_t bytes);
  bool busy() const { return free_.size() < depth_; }

  RingSetup setup_;
  unsigned depth_ = 1;
  io_uring ring_{};
  bool ready_ = false;
  std::vector<Op> ops_;
  std::vector<unsigned> free_;        // free slots
  std::vector<unsigned> unsubmitted_; // slots prepared since the last submission
  std::vector<bool> file_used_;       // the file table's entries in use
  std::uint8_t *buffers_ = nullptr;   // RegisteredBuffers: depth slots of slot_bytes_ each
  std::int64_t slot_bytes_ = 0;
  std::size_t mapped_ = 0;
};

} // namespace pio::io
