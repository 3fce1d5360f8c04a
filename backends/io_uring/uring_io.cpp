// The io_uring backend's Interface (uring_io.hpp).
#include "uring_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pio/error.hpp"

namespace pio::io {

namespace {

[[noreturn]] void no_such_call(const Transfer &t, const char *why) {
  throw Error(std::string("Interface io_uring has no ") + to_string(t.completion) + " " +
                  to_string(t.direction) + " on the " + to_string(t.positioning) + ": " + why,
              "use explicit offsets with blocking or non-blocking completion, or Interface mpiio");
}

} // namespace

UringIo::Pending *UringIo::slot_of(const MPI_Request *request) {
  const std::size_t n = pending_.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (next_ + k) % n;
    if (pending_[i]->request == request) {
      next_ = i;
      return pending_[i].get();
    }
  }
  return nullptr;
}

UringIo::Pending &UringIo::claim(const MPI_Request *request) {
  if (Pending *p = slot_of(request))
    return *p;
  for (auto &p : pending_)
    if (!p->live) {
      p->request = request;
      return *p;
    }
  pending_.push_back(std::make_unique<Pending>());
  pending_.back()->request = request;
  return *pending_.back();
}

std::int64_t UringIo::elements(std::int64_t bytes, int count, bool count_moved,
                               std::int64_t moved) {
  if (!count_moved || count == 0)
    return count;
  return moved / (bytes / count); // whole elements, as MPI_Get_count counts them
}

std::int64_t UringIo::queue(const Transfer &t, OpGroup &group) {
  const bool write = t.direction == Direction::Write;
  const char *call = write ? "write" : "read";
  auto *p = static_cast<std::uint8_t *>(t.buffer);
  OpRequest op;
  op.write = write;
  op.fd = fd_;
  op.file_index = file_index_;
  op.path = &path_;
  op.direct = direct_.file > 0;
  // With RegisteredBuffers the data goes through the ring's aligned buffers: only the file
  // side must be aligned.
  const bool own_memory = !ring_.setup().registered_buffers;
  if (t.positioning == Positioning::IndividualPointer) {
    const Extent at{pointer_, contiguous_bytes_of(t)};
    check_direct(direct_, path_, call, at, own_memory ? p : nullptr);
    op.buffer = p;
    op.offset = at.offset;
    op.length = at.length;
    ring_.queue(op, group, latency_sink_);
    pointer_ += at.length; // moves past what it moves (a short read is reported, not re-read)
    return at.length;
  }
  const std::int64_t bytes = extent_transfer_bytes(t, "io_uring");
  for (std::size_t i = 0; i < t.extent_count; ++i) // every alignment before any operation
    check_direct(direct_, path_, call, t.extents[i], own_memory ? p : nullptr);
  for (std::size_t i = 0; i < t.extent_count; ++i) {
    const Extent &e = t.extents[i];
    op.buffer = p;
    op.offset = e.offset;
    op.length = e.length;
    ring_.queue(op, group, latency_sink_);
    p += e.length;
  }
  return bytes;
}

std::int64_t UringIo::start(const Transfer &t) {
  if (t.positioning == Positioning::SharedPointer)
    no_such_call(t, "io_uring has no file pointer shared by the ranks");
  if (t.completion == Completion::Split)
    no_such_call(t, "a split collective needs MPI-IO's begin/end pairs");
  if (t.count < 0)
    throw Error("a transfer of " + std::to_string(t.count) + " elements",
                "pass a count of 0 or more");
  if (t.completion == Completion::NonBlocking) {
    if (t.request == nullptr)
      throw Error("a non-blocking transfer needs Transfer::request",
                  "point it at the MPI_Request the transfer's completion waits on");
    Pending &pending = claim(t.request);
    if (pending.live && pending.group.pending > 0) // the request's last transfer never finished
      ring_.wait(pending.group);
    pending.group = OpGroup{};
    pending.bytes = 0;
    pending.live = true;
    pending.count = t.count;
    pending.count_moved = t.count_moved;
    *t.request = MPI_REQUEST_NULL; // completed through finish / wait_all, not MPI_Wait
    if (t.count > 0)
      pending.bytes = queue(t, pending.group);
    return 0;
  }
  if (t.count == 0)
    return 0;
  OpGroup group;
  try {
    const std::int64_t bytes = queue(t, group);
    ring_.wait(group);
    return elements(bytes, t.count, t.count_moved, group.moved);
  } catch (...) {
    ring_.abandon(group); // what is still in flight must not report to this stack frame
    throw;
  }
}

std::int64_t UringIo::finish(const Transfer &t) {
  if (t.completion == Completion::Blocking)
    return t.count;
  if (t.completion == Completion::Split)
    no_such_call(t, "a split collective needs MPI-IO's begin/end pairs");
  Pending *p = slot_of(t.request);
  if (p == nullptr || !p->live)
    return t.count;
  p->live = false;
  ring_.wait(p->group);
  return elements(p->bytes, p->count, p->count_moved, p->group.moved);
}

void UringIo::wait_all(MPI_Request *requests, int n) {
  std::string error, fix;
  for (int i = 0; i < n; ++i) {
    Pending *p = slot_of(requests + i);
    if (p == nullptr || !p->live)
      continue;
    p->live = false;
    try {
      ring_.wait(p->group);
    } catch (const Error &e) {
      if (error.empty())
        error = e.what(), fix = e.hint();
    }
  }
  if (!error.empty())
    throw Error(error, fix);
}

void UringIo::sync() {
  ring_.drain_all(); // fsync covers the writes that completed
  fsync_file(fd_, path_);
}

void UringIo::seek(MPI_Offset offset) { pointer_ = checked_seek(offset, path_); }

std::int64_t UringIo::size() { return file_size(fd_, path_); }

} // namespace pio::io
