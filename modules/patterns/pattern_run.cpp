// The I/O of one work unit of the pattern engine (thesis §3.4.2): buffers, stamps, views and
// datatypes are prepared untimed; transfer() is what the timed work unit calls.
#include "pattern_run.hpp"

#include <climits>
#include <sstream>

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

void PatternModule::Run::check(const PageBytes &data, int generation, unsigned char mask,
                               const char *what) const {
  std::int64_t pos = 0;
  for (const auto &e : extents) {
    // Word by word (pio/stamp.hpp): inside a timed unit under Verify timed, as IOR -R compares.
    const std::int64_t i =
        stamp_mismatch(data.data() + pos, e.length, owner, e.offset, generation, mask);
    if (i >= 0) {
      const unsigned expect = stamp_byte(owner, e.offset + i, generation) ^ mask;
      const unsigned got = data[static_cast<size_t>(pos + i)];
      throw Error("verification failed (" + std::string(what) + "): rank " + std::to_string(rank) +
                      ", file offset " + std::to_string(e.offset + i) + ": expected " +
                      hex(expect) + ", found " + hex(got),
                  "the file system returned wrong data; rerun with KeepFiles on and inspect "
                  "the file at that offset");
    }
    pos += e.length;
  }
}

PageBytes PatternModule::Run::read_back() const {
  if (!views) {
    PageBytes data(static_cast<size_t>(bytes));
    if (bytes > 0)
      io_run(false, false, 0, data.data(), bytes, memtype, extents.data(), extents.size());
    return data;
  }
  if (use_view)
    io->set_view(0, MPI_BYTE, MPI_BYTE);
  PageBytes data(static_cast<size_t>(bytes));
  std::int64_t pos = 0;
  for (const auto &e : extents) {
    Datatype t = contiguous_bytes(e.length);
    if (e.length > 0) {
      io::Transfer r;
      r.direction = io::Direction::Read;
      r.buffer = data.data() + pos;
      r.count = 1;
      r.datatype = t.get();
      r.offset = e.offset;
      r.extents = &e;
      r.extent_count = 1;
      io->start(r);
    }
    pos += e.length;
  }
  return data;
}

void PatternModule::Run::prepare_unit(std::int64_t unit) {
  extents = geometry->extents(rank, unit);
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
