// The I/O of one work unit of the pattern engine (thesis §3.4.2): buffers, stamps, views and
// datatypes are prepared untimed; transfer() is what the timed work unit calls.
#include "pattern_run.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "extent_order.hpp"
#include "pio/patterns/byte_types.hpp"
#include "pio/stamp.hpp"

namespace pio::patterns {

namespace {

/// A datatype for a run of n contiguous bytes only where an int count cannot say it; else none
/// (the call then passes n MPI_BYTEs, as IOR does).
Datatype type_if_large(std::int64_t n) { return n > INT_MAX ? contiguous_bytes(n) : Datatype(); }

std::string hex(unsigned v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

/// Up to 8 bytes from p as hex pairs ("3a 9f 00").
std::string hex_bytes(const std::uint8_t *p, std::int64_t n) {
  std::ostringstream s;
  s << std::hex << std::setfill('0');
  for (std::int64_t k = 0; k < n; ++k)
    s << (k ? " " : "") << std::setw(2) << static_cast<unsigned>(p[k]);
  return s.str();
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return name;
}

} // namespace

void *PatternModule::Run::io_buffer() {
  return noncontiguous_memory ? buffer.data() : stream.data();
}

void PatternModule::Run::stamp(int generation) {
  std::int64_t pos = 0;
  for (const auto &e : extents) {
    stamp_fill(stream.data() + pos, e.length, owner, e.offset, generation);
    pos += e.length;
  }
  to_memory();
}

void PatternModule::Run::to_memory() {
  if (!noncontiguous_memory || bytes == 0)
    return;
  int pos = 0;
  mpi_check(MPI_Unpack(stream.data(), static_cast<int>(bytes), &pos, buffer.data(), 1,
                       memtype.get(), MPI_COMM_SELF),
            "MPI_Unpack");
}

void PatternModule::Run::from_memory() {
  if (!noncontiguous_memory || bytes == 0)
    return;
  int pos = 0;
  mpi_check(MPI_Pack(buffer.data(), 1, memtype.get(), stream.data(), static_cast<int>(bytes), &pos,
                     MPI_COMM_SELF),
            "MPI_Pack");
}

std::string PatternModule::Run::mismatch_message(const char *what, const std::uint8_t *got,
                                                 const Extent &e, std::int64_t i, int generation,
                                                 unsigned char mask) const {
  // The first wrong byte as before, then what a reader needs to tell a stale or misplaced piece
  // from a torn one: 8 bytes from there, how much of the piece is wrong, and the rank's host.
  const std::int64_t n = std::min<std::int64_t>(8, e.length - i);
  std::vector<std::uint8_t> want(static_cast<size_t>(e.length));
  stamp_fill(want.data(), e.length, owner, e.offset, generation);
  std::int64_t wrong = 0;
  for (std::int64_t k = 0; k < e.length; ++k) {
    want[static_cast<size_t>(k)] ^= mask;
    wrong += got[k] != want[static_cast<size_t>(k)];
  }
  const auto at = [](std::int64_t a, std::int64_t b) {
    return std::to_string(a) + "-" + std::to_string(b);
  };
  return "verification failed (" + std::string(what) + "): rank " + std::to_string(rank) +
         ", file offset " + std::to_string(e.offset + i) + ": expected " +
         hex(want[static_cast<size_t>(i)]) + ", found " + hex(got[i]) + "; bytes " +
         at(e.offset + i, e.offset + i + n - 1) + " expected " + hex_bytes(want.data() + i, n) +
         ", found " + hex_bytes(got + i, n) + "; " + std::to_string(wrong) + " of the " +
         std::to_string(e.length) + " bytes at " + at(e.offset, e.offset + e.length - 1) +
         " wrong; rank " + std::to_string(rank) + " runs on host " + processor_name();
}

void PatternModule::Run::check(const PageBytes &data, int generation, unsigned char mask,
                               const char *what) const {
  std::int64_t pos = 0;
  for (const auto &e : extents) {
    // Word by word (pio/stamp.hpp): inside a timed unit under Verify timed, as IOR -R compares.
    const std::int64_t i =
        stamp_mismatch(data.data() + pos, e.length, owner, e.offset, generation, mask);
    if (i >= 0)
      throw Error(mismatch_message(what, data.data() + pos, e, i, generation, mask),
                  "the file system returned wrong data; rerun with KeepFiles on and inspect "
                  "the file at that offset");
    pos += e.length;
  }
}

void PatternModule::Run::prepare_file(int reader) {
  for (std::int64_t u = 0; u < units; ++u) {
    extents = geometry->prepares(reader, u); // none where another rank prepares them
    bytes = 0;
    for (const auto &e : extents)
      bytes += e.length;
    stream.assign(static_cast<size_t>(bytes), 0);
    std::int64_t pos = 0;
    for (const auto &e : extents) {
      stamp_fill(stream.data() + pos, e.length, rank, e.offset, 0);
      if (e.length > 0)
        io_run(true, false, e.offset, stream.data() + pos, e.length, type_if_large(e.length), &e,
               1);
      pos += e.length;
    }
  }
}

PageBytes PatternModule::Run::read_back() const {
  if (use_view)
    io->set_view(0, MPI_BYTE, MPI_BYTE);
  PageBytes data(static_cast<size_t>(bytes));
  std::int64_t pos = 0;
  for (const auto &e : extents) {
    if (e.length > 0)
      io_run(false, false, e.offset, data.data() + pos, e.length, type_if_large(e.length), &e, 1);
    pos += e.length;
  }
  return data;
}

void PatternModule::Run::prepare_unit(std::int64_t unit) {
  if (!plan.holds(unit)) // the next batch, or a unit the plan was not made for
    plan.fill(*geometry, rank, unit, units);
  extents.assign(plan.begin(unit), plan.end(unit)); // into the vector's capacity, no malloc
  owner = (geometry->data_rank(rank, unit) + shift) % size;
  bytes = 0;
  for (const auto &e : extents)
    bytes += e.length;
  // Every byte the unit moves is stamped, read or (Verify) checked; zeroing is for the checks.
  sized(stream, bytes);
  // Without a file view the I/O works on the contiguous stream, so memory is contiguous too.
  noncontiguous_memory = false;
  if (use_view) {
    MemoryLayout mem = geometry->memory(rank, unit);
    noncontiguous_memory = mem.type.get() != MPI_DATATYPE_NULL;
    if (noncontiguous_memory) {
      sized(buffer, mem.buffer_bytes);
      memtype = std::move(mem.type);
    } else {
      memtype = type_if_large(bytes);
    }
    if (bytes == 0) {
      io->set_view(0, MPI_BYTE, MPI_BYTE);
    } else if (!in_file_order(extents)) {
      // The view needs file order: the extents are sorted, and the stream (stamped per extent,
      // in this order) follows them. The pre-flight check refused what cannot be sorted among
      // the units it evaluated; a later unit is refused here, before its I/O.
      const std::string overlap = sort_for_view(extents);
      if (!overlap.empty() || noncontiguous_memory)
        throw Error(where + ": in work unit " + std::to_string(unit) + " rank " +
                        std::to_string(rank) + "'s extents " +
                        (overlap.empty() ? std::string("are out of file order and its memory is a "
                                                       "datatype the engine cannot reorder")
                                         : overlap + " overlap each other") +
                        ": they cannot go through a file view",
                    "make the Geometry's extents() ascend in file order without overlap, or run "
                    "the block with FileView off");
      FileView v{extents.front().offset, hindexed_bytes(extents, extents.front().offset)};
      io->set_view(v.disp, MPI_BYTE, v.filetype.get());
    } else {
      FileView v = geometry->view(rank, unit);
      io->set_view(v.disp, MPI_BYTE, v.filetype.get());
    }
  } else if (!views) {
    memtype = type_if_large(bytes); // one transfer of the whole stream
  } else {
    pieces.resize(extents.size());
    std::int64_t pos = 0;
    for (size_t i = 0; i < extents.size(); ++i) {
      const Extent &e = extents[i];
      Piece &p = pieces[i];
      p.offset = e.offset;
      p.stream_pos = pos;
      p.length = e.length;
      p.large = type_if_large(e.length);
      pos += e.length;
    }
  }
}

void PatternModule::Run::sized(PageBytes &v, std::int64_t n) const {
  if (verify != VerifyMode::Off)
    v.assign(static_cast<size_t>(n), 0);
  else
    v.resize(static_cast<size_t>(n));
}

void PatternModule::Run::io_run(bool write, bool collective, MPI_Offset off, void *ptr,
                                std::int64_t n, const Datatype &type, const Extent *covers,
                                std::size_t count) const {
  io::Transfer t;
  t.direction = write ? io::Direction::Write : io::Direction::Read;
  t.positioning = io::Positioning::ExplicitOffset;
  t.coordination = collective ? io::Coordination::Collective : io::Coordination::Independent;
  t.buffer = ptr;
  t.offset = off;
  if (type.get() != MPI_DATATYPE_NULL) {
    t.count = 1;
    t.datatype = type.get();
  } else {
    t.count = static_cast<int>(n);
    t.datatype = MPI_BYTE;
  }
  t.extents = covers;
  t.extent_count = count;
  io->start(t);
}

void PatternModule::Run::transfer(bool write, bool collective) {
  if (!views) {
    if (bytes > 0)
      io_run(write, collective, 0, stream.data(), bytes, memtype, extents.data(), extents.size());
    else if (collective)
      io_run(write, collective, 0, stream.data(), 0, Datatype(), nullptr, 0);
    return;
  }
  if (use_view) {
    if (collective || bytes > 0)
      io_run(write, collective, 0, io_buffer(), bytes, memtype, extents.data(), extents.size());
    return;
  }
  const auto mine = static_cast<std::int64_t>(pieces.size());
  const std::int64_t calls = collective ? max_pieces : mine;
  for (std::int64_t i = 0; i < calls; ++i) {
    if (i < mine) {
      const auto k = static_cast<size_t>(i);
      const Piece &p = pieces[k];
      io_run(write, collective, p.offset, stream.data() + p.stream_pos, p.length, p.large,
             &extents[k], 1);
    } else {
      io_run(write, collective, 0, stream.data(), 0, Datatype(), nullptr, 0);
    }
  }
}

bool PatternModule::Run::overlaps(const UnitContext &unit) const {
  return overlap_depth > 1 && unit.may_overlap && !unit.collective && !unit.flush && unit.units > 1;
}

void UnitPayload::swap_unit(UnitPayload &other) noexcept {
  extents.swap(other.extents);
  std::swap(bytes, other.bytes);
  std::swap(owner, other.owner);
  stream.swap(other.stream);
}

void PatternModule::Run::make_slots(const UnitContext &unit) {
  if (in_flight.empty() && overlaps(unit))
    in_flight.resize(static_cast<size_t>(std::min<std::int64_t>(overlap_depth, unit.units)));
}

std::int64_t PatternModule::Run::overlapped(bool write, UnitContext &unit) {
  InFlight &s = in_flight[static_cast<size_t>(unit.unit) % in_flight.size()];
  if (s.busy) // the transfer of the unit in_flight.size() units back
    finish(s);
  swap_unit(s);
  io::Transfer &t = s.transfer;
  t = io::Transfer{};
  t.direction = write ? io::Direction::Write : io::Direction::Read;
  t.completion = io::Completion::NonBlocking;
  t.buffer = s.stream.data();
  s.large = type_if_large(s.bytes);
  if (s.large.get() != MPI_DATATYPE_NULL) {
    t.count = 1;
    t.datatype = s.large.get();
  } else {
    t.count = static_cast<int>(s.bytes);
  }
  t.extents = s.extents.data();
  t.extent_count = s.extents.size();
  t.request = &s.request;
  io->start(t);
  s.busy = true;
  const std::int64_t moved = s.bytes;
  if (unit.unit + 1 >= unit.units) { // the phase's last unit: every transfer done by its end
    for (size_t k = 1; k <= in_flight.size(); ++k) {
      InFlight &next = in_flight[static_cast<size_t>(unit.unit + static_cast<std::int64_t>(k)) %
                                 in_flight.size()];
      if (next.busy)
        finish(next);
    }
  }
  unit.in_flight =
      std::any_of(in_flight.begin(), in_flight.end(), [](const InFlight &f) { return f.busy; });
  return moved;
}

void PatternModule::Run::finish(InFlight &s) {
  s.busy = false;
  io->finish(s.transfer);
  if (verify == VerifyMode::Timed && s.transfer.direction == io::Direction::Read) {
    swap_unit(s);
    try {
      check(stream, 0, 0, "data read");
    } catch (...) {
      swap_unit(s);
      throw;
    }
    swap_unit(s);
  } else if (verify == VerifyMode::Untimed) {
    // The slot takes the next unit at once: the finished unit's bytes wait for after_work_unit
    // in a list of their own (its entries' buffers are reused).
    if (unchecked == finished.size())
      finished.emplace_back();
    InFlight &f = finished[unchecked++];
    f.swap_unit(s);
    f.transfer.direction = s.transfer.direction;
  }
}

void PatternModule::Run::check_finished() {
  const size_t n = unchecked;
  unchecked = 0;
  for (size_t k = 0; k < n; ++k) {
    InFlight &s = finished[k];
    swap_unit(s);
    try {
      if (s.transfer.direction == io::Direction::Write)
        check(read_back(), 0, 0, "written data read back");
      else
        check(stream, 0, 0, "data read");
    } catch (...) {
      swap_unit(s);
      throw;
    }
    swap_unit(s);
  }
}

void PatternModule::Run::write(bool collective) { transfer(true, collective); }

void PatternModule::Run::read(bool collective) { transfer(false, collective); }

void PatternModule::Run::check_read() {
  from_memory();
  check(stream, 0, 0, "data read");
}

void PatternModule::Run::modify() {
  auto *p = static_cast<std::uint8_t *>(io_buffer());
  const size_t n = noncontiguous_memory ? buffer.size() : stream.size();
  for (size_t i = 0; i < n; ++i)
    p[i] ^= kModifyMask;
}

} // namespace pio::patterns

namespace pio::patterns {

void PatternModule::Run::wait_for_release(std::int64_t unit) {
  if (!started) {
    clock_gettime(CLOCK_MONOTONIC, &origin);
    started = true;
  }
  const double at = geometry->release_time(rank, unit);
  if (!(at >= 0))
    return;
  // An absolute deadline, so the waits do not add up their own overruns (and a test can read
  // each deadline from the clock_nanosleep call).
  const double whole = std::floor(at);
  struct timespec deadline = origin;
  deadline.tv_sec += static_cast<time_t>(whole);
  deadline.tv_nsec += static_cast<long>((at - whole) * 1e9);
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  int rc = 0;
  while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr)) == EINTR) {
  }
  if (rc != 0)
    throw Error(where + ": clock_nanosleep failed waiting for unit " + std::to_string(unit) +
                    " (error " + std::to_string(rc) + ")",
                "this is a bug; report it with the config");
}

} // namespace pio::patterns
