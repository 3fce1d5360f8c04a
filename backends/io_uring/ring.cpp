// The io_uring of the io_uring backend (ring.hpp).
#include "ring.hpp"

#include <sys/mman.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "pio/error.hpp"
#include "posix_checks.hpp"

namespace pio::io {

namespace {

/// Entries of the ring's file table with RegisteredFiles (a rank's files open at once beyond
/// these go unregistered).
constexpr unsigned kFileTable = 256;
/// RegisteredBuffers: what the slots' buffers may take together, and each slot's first size.
constexpr std::int64_t kBufferBudget = std::int64_t(256) << 20;
constexpr std::int64_t kFirstSlotBytes = 4096;

std::string text(int e) { return std::strerror(e); }

std::int64_t page_round(std::int64_t n) { return (n + 4095) / 4096 * 4096; }

} // namespace

Ring::Ring(const RingSetup &setup) : setup_(setup), depth_(std::max(1u, setup.depth)) {
  // As fio's io_uring engine sets its ring up (engines/io_uring.c, fio_ioring_queue_init): one
  // thread submits, and the completions' task work waits for its wait instead of interrupting
  // it; each dropped where the kernel refuses it (EINVAL: before Linux 6.1). Not under SqPoll,
  // whose kernel thread submits.
  unsigned flags = setup_.sq_poll ? IORING_SETUP_SQPOLL
                                  : IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
                                        IORING_SETUP_DEFER_TASKRUN;
  auto init = [&] {
    io_uring_params p{};
    p.flags = flags;
    if (setup_.sq_poll)
      p.sq_thread_idle = 1000; // ms the poller spins without work before it sleeps
    return io_uring_queue_init_params(depth_, &ring_, &p);
  };
  int rc = init();
  for (const unsigned optional : {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
                                  unsigned{IORING_SETUP_COOP_TASKRUN}})
    if (rc == -EINVAL && (flags & optional)) {
      flags &= ~optional;
      rc = init();
    }
  if (rc < 0) {
    const std::string why = "io_uring_setup(" + std::to_string(depth_) + " entries" +
                            (setup_.sq_poll ? ", IORING_SETUP_SQPOLL" : "") + "): " + text(-rc);
    if (setup_.sq_poll && (rc == -EPERM || rc == -EINVAL || rc == -EACCES))
      throw DirectiveError("SqPoll",
                           "SqPoll on: the kernel refuses a submission-queue polling thread "
                           "here (" +
                               why + ")",
                           "set SqPoll off (a kernel before 5.11 allows it to privileged users "
                           "only; kernel.io_uring_disabled must be 0)");
    if (rc == -ENOMEM)
      throw DirectiveError("QueueDepth",
                           "QueueDepth " + std::to_string(depth_) +
                               ": the kernel cannot make a ring that deep (" + why + ")",
                           "choose a smaller QueueDepth");
    throw DirectiveError("Interface", "the kernel refuses io_uring here (" + why + ")",
                         "check kernel.io_uring_disabled (0 allows io_uring; 1 allows it to the "
                         "io_uring_group only) and any seccomp profile, or choose Interface posix");
  }
  ready_ = true;
  ops_.resize(depth_);
  for (unsigned i = depth_; i-- > 0;)
    free_.push_back(i);
  unsubmitted_.reserve(depth_);
  if (setup_.registered_files) {
    const int f = io_uring_register_files_sparse(&ring_, kFileTable);
    if (f < 0) {
      io_uring_queue_exit(&ring_);
      ready_ = false;
      throw DirectiveError("RegisteredFiles",
                           "RegisteredFiles on: io_uring_register_files_sparse(" +
                               std::to_string(kFileTable) + "): " + text(-f),
                           "set RegisteredFiles off (the kernel's file table for io_uring "
                           "needs Linux 5.19)");
    }
    file_used_.assign(kFileTable, false);
  }
  if (setup_.registered_buffers) {
    try {
      grow_buffers(kFirstSlotBytes);
    } catch (const Error &e) {
      io_uring_queue_exit(&ring_);
      ready_ = false;
      throw DirectiveError("RegisteredBuffers", std::string("RegisteredBuffers on: ") + e.what(),
                           e.hint());
    }
  }
}

Ring::~Ring() {
  if (!ready_)
    return;
  try {
    drain_all();
  } catch (...) {
  }
  io_uring_queue_exit(&ring_); // unregisters the buffers and files with the ring
  if (buffers_)
    ::munmap(buffers_, mapped_);
}

int Ring::register_file(int fd) {
  if (!setup_.registered_files)
    return -1;
  const auto slot = std::find(file_used_.begin(), file_used_.end(), false);
  if (slot == file_used_.end())
    return -1;
  const auto index = static_cast<unsigned>(slot - file_used_.begin());
  const int rc = io_uring_register_files_update(&ring_, index, &fd, 1);
  if (rc < 0)
    throw Error("io_uring_register_files_update (RegisteredFiles on) of descriptor " +
                    std::to_string(fd) + ": " + text(-rc),
                "set RegisteredFiles off");
  *slot = true;
  return static_cast<int>(index);
}

void Ring::unregister_file(int index) noexcept {
  if (index < 0 || static_cast<size_t>(index) >= file_used_.size())
    return;
  int none = -1;
  io_uring_register_files_update(&ring_, static_cast<unsigned>(index), &none, 1);
  file_used_[static_cast<size_t>(index)] = false;
}

void Ring::grow_buffers(std::int64_t bytes) {
  const std::int64_t want = page_round(std::max(bytes, slot_bytes_));
  if (want <= slot_bytes_)
    return;
  if (want * depth_ > kBufferBudget)
    throw Error("RegisteredBuffers: an operation of " + std::to_string(bytes) + " bytes needs " +
                    std::to_string(depth_) + " registered buffers of " + std::to_string(want) +
                    " bytes, more than the " + std::to_string(kBufferBudget >> 20) +
                    " MiB they may take together",
                "set RegisteredBuffers off, or a smaller QueueDepth or transfer size");
  while (busy())
    submit_and_reap(1); // nothing in flight may point into the old buffers
  if (buffers_) {
    io_uring_unregister_buffers(&ring_);
    ::munmap(buffers_, mapped_);
    buffers_ = nullptr;
  }
  const auto size = static_cast<std::size_t>(want) * depth_;
  void *m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    throw Error("mmap of " + std::to_string(size) +
                    " bytes for the registered buffers: " + text(errno),
                "set RegisteredBuffers off, or a smaller QueueDepth");
  std::vector<iovec> iov(depth_);
  for (unsigned i = 0; i < depth_; ++i)
    iov[i] = iovec{static_cast<std::uint8_t *>(m) + static_cast<std::size_t>(want) * i,
                   static_cast<std::size_t>(want)};
  const int rc = io_uring_register_buffers(&ring_, iov.data(), depth_);
  if (rc < 0) {
    ::munmap(m, size);
    slot_bytes_ = 0;
    throw Error("io_uring_register_buffers of " + std::to_string(depth_) + " buffers of " +
                    std::to_string(want) + " bytes: " + text(-rc),
                "raise the locked-memory limit (ulimit -l), or set RegisteredBuffers off");
  }
  buffers_ = static_cast<std::uint8_t *>(m);
  mapped_ = size;
  slot_bytes_ = want;
}

void Ring::prepare(unsigned i) {
  Op &o = ops_[i];
  io_uring_sqe *sqe = io_uring_get_sqe(&ring_);
  if (!sqe) {
    // Under SqPoll the kernel's poller frees an entry only when it has taken it, which may lag
    // behind the submission: hand the queued entries over and wait until it has. Nothing is
    // reaped here (prepare runs inside the reaping of a short transfer's completion).
    submit_queued();
    if (setup_.sq_poll)
      io_uring_sqring_wait(&ring_);
    sqe = io_uring_get_sqe(&ring_);
    if (!sqe) { // the transfer fails; its slot is free again, so no wait is left for it
      if (o.group && o.group->error.empty()) {
        o.group->error = "io_uring_get_sqe: the submission queue is full";
        o.group->fix = "a bug in the io_uring backend; report it with the config";
      }
      o.sink = nullptr;
      release(i, Clock::now());
      return;
    }
  }
  const int fd = o.req.file_index >= 0 ? o.req.file_index : o.req.fd;
  const auto len = static_cast<unsigned>(o.req.length);
  const auto off = static_cast<__u64>(o.req.offset);
  if (buffers_) {
    std::uint8_t *b = buffers_ + static_cast<std::size_t>(slot_bytes_) * i + o.done;
    if (o.req.write)
      io_uring_prep_write_fixed(sqe, fd, b, len, off, static_cast<int>(i));
    else
      io_uring_prep_read_fixed(sqe, fd, b, len, off, static_cast<int>(i));
  } else if (o.req.write) {
    io_uring_prep_write(sqe, fd, o.req.buffer, len, off);
  } else {
    io_uring_prep_read(sqe, fd, o.req.buffer, len, off);
  }
  if (o.req.file_index >= 0)
    sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data64(sqe, i);
  unsubmitted_.push_back(i);
}

void Ring::queue(const OpRequest &op, OpGroup &group, LatencySink *sink) {
  if (op.length <= 0)
    return;
  if (op.length > INT32_MAX)
    throw Error("an io_uring operation of " + std::to_string(op.length) + " bytes on " +
                    (op.path ? *op.path : std::string("a file")),
                "use transfers of at most 2 GiB per extent");
  if (buffers_)
    grow_buffers(op.length);
  while (free_.empty())
    submit_and_reap(1);
  const unsigned i = free_.back();
  free_.pop_back();
  Op &o = ops_[i];
  o.req = op;
  o.done = 0;
  o.user = op.buffer;
  o.group = &group;
  o.sink = sink;
  o.in_use = true;
  ++group.pending;
  if (buffers_ && op.write)
    std::memcpy(buffers_ + static_cast<std::size_t>(slot_bytes_) * i, op.buffer,
                static_cast<std::size_t>(op.length));
  prepare(i);
  // Every slot queued: submit them in one call (fio's iodepth_batch at the depth), so that they
  // move while the caller does other things. At depth 1 the wait that follows submits it: one
  // io_uring_enter per operation, as one pread.
  if (depth_ > 1 && unsubmitted_.size() == depth_)
    submit_and_reap(0);
}

void Ring::stamp_queued() {
  const Clock::time_point start = Clock::now();
  for (unsigned i : unsubmitted_)
    if (ops_[i].done == 0)
      ops_[i].submitted = start; // a resubmitted remainder keeps its first submission
  unsubmitted_.clear();
}

void Ring::submit_queued() {
  stamp_queued();
  io_uring_submit(&ring_); // an error shows at the next submit_and_reap's enter
}

void Ring::submit_and_reap(unsigned wait_nr) {
  stamp_queued();
  for (;;) {
    const int rc = io_uring_submit_and_wait(&ring_, wait_nr);
    if (rc >= 0 || rc == -EINTR || rc == -ETIME)
      break;
    if (rc == -EAGAIN || rc == -EBUSY) { // completions to reap first
      wait_nr = 0;
      break;
    }
    throw Error("io_uring_enter (submitting and waiting for " + std::to_string(wait_nr) +
                    " completions): " + text(-rc),
                "check the kernel's io_uring (dmesg), or choose Interface posix");
  }
  io_uring_cqe *cqes[64];
  for (;;) {
    const unsigned n = io_uring_peek_batch_cqe(&ring_, cqes, 64);
    if (n == 0)
      break;
    const Clock::time_point now = Clock::now();
    for (unsigned k = 0; k < n; ++k) {
      const auto i = static_cast<unsigned>(io_uring_cqe_get_data64(cqes[k]));
      const int res = cqes[k]->res;
      io_uring_cq_advance(&ring_, 1);
      if (i < depth_ && ops_[i].in_use)
        complete(i, res, now);
    }
  }
}

void Ring::complete(unsigned i, int res, Clock::time_point now) {
  Op &o = ops_[i];
  auto fail = [&](const std::string &why, int e) {
    if (o.group && o.group->error.empty()) {
      const char *call = o.req.write ? "write" : "read";
      const std::string path = o.req.path ? *o.req.path : std::string("a file");
      o.group->error = std::string("io_uring ") + call + " of " + path + " at offset " +
                       std::to_string(o.req.offset) + " (" + std::to_string(o.req.length) +
                       " bytes): " + why;
      o.group->fix = transfer_fix(e, o.req.direct);
    }
    release(i, now);
  };
  if (res < 0)
    return fail(text(-res), -res);
  if (res == 0) {
    if (!o.req.write)
      return release(i, now); // end of file: a short read, as pread reports it
    return fail("wrote nothing", ENOSPC);
  }
  o.done += res;
  if (res < o.req.length) { // short: the rest, from where it stopped (as posix loops)
    o.req.buffer += res;
    o.req.offset += res;
    o.req.length -= res;
    prepare(i);
    return;
  }
  release(i, now);
}

void Ring::release(unsigned i, Clock::time_point now) {
  Op &o = ops_[i];
  if (buffers_ && !o.req.write && o.done > 0 && o.group)
    std::memcpy(o.user, buffers_ + static_cast<std::size_t>(slot_bytes_) * i,
                static_cast<std::size_t>(o.done));
  if (o.group) {
    o.group->moved += o.done;
    --o.group->pending;
  }
  if (o.sink)
    o.sink->record(std::chrono::duration<double>(now - o.submitted).count());
  o = Op{};
  free_.push_back(i);
}

void Ring::wait(OpGroup &group) {
  while (group.pending > 0)
    submit_and_reap(1);
  if (!group.error.empty())
    throw Error(group.error, group.fix);
}

void Ring::abandon(const OpGroup &group) noexcept {
  for (Op &o : ops_)
    if (o.in_use && o.group == &group) {
      o.group = nullptr;
      o.sink = nullptr;
    }
}

void Ring::drain(int fd) noexcept {
  auto on_fd = [&] {
    return std::any_of(ops_.begin(), ops_.end(),
                       [&](const Op &o) { return o.in_use && o.req.fd == fd; });
  };
  try {
    while (on_fd())
      submit_and_reap(1);
  } catch (...) {
  }
}

void Ring::drain_all() {
  while (busy())
    submit_and_reap(1);
}

} // namespace pio::io
