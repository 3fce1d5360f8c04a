// The temporal-mode engine (thesis §3.4.2) over a spatial Geometry (thesis §3.4.1).
// Work units carry only the I/O calls (and the flush when SyncWrites asks, thesis §3.3.2);
// stamping, views, datatypes, the first access of re-read/re-write and verification all happen
// in the untimed methods.
#include "common/pattern_module.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "common/byte_types.hpp"
#include "pio/stamp.hpp"

namespace pio::patterns {

namespace {

/// One contiguous piece of a unit's I/O without a file view: file offset, stream position.
struct Piece {
  std::int64_t offset = 0;
  std::int64_t stream_pos = 0;
  Datatype type; // contiguous bytes of the piece's length
};

std::string hex(unsigned v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

} // namespace

/// Per-test state, rebuilt by describe_test.
struct PatternModule::Run {
  std::unique_ptr<Geometry> geometry;
  TemporalMode mode = TemporalMode::Write;
  MPI_File file = MPI_FILE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int owner = 0; // data_rank of the current unit: whose stamps its bytes hold
  bool verify = false;
  bool use_view = true;
  std::int64_t units = 0;
  std::int64_t max_pieces = 0;      // no-view collective: calls every rank makes per unit
  std::vector<Extent> extents;      // this unit's file extents (stream order)
  std::int64_t bytes = 0;           // this unit's payload bytes
  std::vector<std::uint8_t> stream; // payload in stream order
  std::vector<std::uint8_t> buffer; // memory buffer when the memory type is non-contiguous
  Datatype memtype;                 // memory datatype (count 1) for view mode
  bool noncontiguous_memory = false;
  std::vector<Piece> pieces; // no-view mode
  Datatype empty_view;       // view for a rank with nothing to do in a unit

  void *io_buffer() { return noncontiguous_memory ? buffer.data() : stream.data(); }

  /// Fills the stream with this rank's stamps for the current extents.
  void stamp(int generation) {
    std::int64_t pos = 0;
    for (const auto &e : extents) {
      stamp_fill(stream.data() + pos, e.length, owner, e.offset, generation);
      pos += e.length;
    }
    to_memory();
  }

  /// Copies the stream into the (non-contiguous) memory buffer.
  void to_memory() {
    if (!noncontiguous_memory || bytes == 0)
      return;
    int pos = 0;
    mpi_check(MPI_Unpack(stream.data(), static_cast<int>(bytes), &pos, buffer.data(), 1,
                         memtype.get(), MPI_COMM_SELF),
              "MPI_Unpack");
  }

  /// Copies the (non-contiguous) memory buffer into the stream.
  void from_memory() {
    if (!noncontiguous_memory || bytes == 0)
      return;
    int pos = 0;
    mpi_check(MPI_Pack(buffer.data(), 1, memtype.get(), stream.data(), static_cast<int>(bytes),
                       &pos, MPI_COMM_SELF),
              "MPI_Pack");
  }

  /// Checks data (stream order) against the expected stamps; throws naming the first bad byte.
  void check(const std::vector<std::uint8_t> &data, int generation, unsigned char mask,
             const char *what) const {
    std::int64_t pos = 0;
    for (const auto &e : extents) {
      for (std::int64_t i = 0; i < e.length; ++i) {
        const unsigned expect = stamp_byte(owner, e.offset + i, generation) ^ mask;
        const unsigned got = data[static_cast<size_t>(pos + i)];
        if (got != expect)
          throw Error("verification failed (" + std::string(what) + "): rank " +
                          std::to_string(rank) + ", file offset " + std::to_string(e.offset + i) +
                          ": expected " + hex(expect) + ", found " + hex(got),
                      "the file system returned wrong data; rerun with KeepFiles on and inspect "
                      "the file at that offset");
      }
      pos += e.length;
    }
  }

  /// Reads this unit's extents back by explicit file offsets (not through the pattern's own
  /// view, so a wrong view is caught) into a stream-order vector. Collective when a view is set.
  std::vector<std::uint8_t> read_back() const {
    if (use_view)
      mpi_check(MPI_File_set_view(file, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                "MPI_File_set_view");
    std::vector<std::uint8_t> data(static_cast<size_t>(bytes));
    std::int64_t pos = 0;
    for (const auto &e : extents) {
      Datatype t = contiguous_bytes(e.length);
      if (e.length > 0)
        mpi_check(
            MPI_File_read_at(file, e.offset, data.data() + pos, 1, t.get(), MPI_STATUS_IGNORE),
            "MPI_File_read_at");
      pos += e.length;
    }
    return data;
  }

  /// Sets up extents, buffers, datatypes and (view mode) the file view for `unit`.
  void prepare_unit(std::int64_t unit) {
    extents = geometry->extents(rank, unit);
    owner = geometry->data_rank(rank, unit);
    bytes = 0;
    for (const auto &e : extents)
      bytes += e.length;
    stream.assign(static_cast<size_t>(bytes), 0);
    MemoryLayout mem = geometry->memory(rank, unit);
    // Without a file view the I/O works on the contiguous stream, so memory is contiguous too.
    noncontiguous_memory = use_view && mem.type.get() != MPI_DATATYPE_NULL;
    if (noncontiguous_memory) {
      buffer.assign(static_cast<size_t>(mem.buffer_bytes), 0);
      memtype = std::move(mem.type);
    } else {
      memtype = contiguous_bytes(bytes);
    }
    if (use_view) {
      if (bytes == 0) {
        mpi_check(MPI_File_set_view(file, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                  "MPI_File_set_view");
      } else {
        FileView v = geometry->view(rank, unit);
        mpi_check(
            MPI_File_set_view(file, v.disp, MPI_BYTE, v.filetype.get(), "native", MPI_INFO_NULL),
            "MPI_File_set_view");
      }
    } else {
      pieces.clear();
      std::int64_t pos = 0;
      for (const auto &e : extents) {
        pieces.push_back(Piece{e.offset, pos, contiguous_bytes(e.length)});
        pos += e.length;
      }
    }
  }

  /// One explicit-offset MPI-IO call: read or write, independent or collective.
  void io_at(bool write, bool collective, MPI_Offset off, void *ptr, int count, MPI_Datatype t) {
    MPI_Status *st = MPI_STATUS_IGNORE;
    if (write && collective)
      mpi_check(MPI_File_write_at_all(file, off, ptr, count, t, st), "MPI_File_write_at_all");
    else if (write)
      mpi_check(MPI_File_write_at(file, off, ptr, count, t, st), "MPI_File_write_at");
    else if (collective)
      mpi_check(MPI_File_read_at_all(file, off, ptr, count, t, st), "MPI_File_read_at_all");
    else
      mpi_check(MPI_File_read_at(file, off, ptr, count, t, st), "MPI_File_read_at");
  }

  /// The I/O of one unit: through the view (one call) or one call per extent. Without a view
  /// memory is the contiguous stream (documented in docs/patterns.md); collectively, every rank
  /// makes max_pieces calls, empty ones where it has fewer pieces.
  void transfer(bool write, bool collective) {
    if (use_view) {
      const int count = bytes > 0 ? 1 : 0;
      if (collective || count > 0)
        io_at(write, collective, 0, io_buffer(), count, memtype.get());
      return;
    }
    const auto mine = static_cast<std::int64_t>(pieces.size());
    const std::int64_t calls = collective ? max_pieces : mine;
    for (std::int64_t i = 0; i < calls; ++i) {
      if (i < mine) {
        const Piece &p = pieces[static_cast<size_t>(i)];
        io_at(write, collective, p.offset, stream.data() + p.stream_pos, 1, p.type.get());
      } else {
        io_at(write, collective, 0, stream.data(), 0, MPI_BYTE);
      }
    }
  }
  void write(bool collective) { transfer(true, collective); }
  void read(bool collective) { transfer(false, collective); }

  /// The "modify" of read-modify-write: every byte of the I/O buffer changes.
  void modify() {
    auto *p = static_cast<std::uint8_t *>(io_buffer());
    const size_t n = noncontiguous_memory ? buffer.size() : stream.size();
    for (size_t i = 0; i < n; ++i)
      p[i] ^= kModifyMask;
  }
};

std::vector<DirectiveSpec> pattern_directives() { return {temporal_mode_directive()}; }

std::vector<TestSpec> PatternModule::init_module(const ModuleContext &ctx) {
  mode_ = parse_temporal_mode(ctx.settings.text("Mode"));
  auto tests = make_tests(ctx);
  for (auto &t : tests)
    t.params["mode"] = temporal_mode_name(mode_);
  return tests;
}

void PatternModule::describe_test(TestContext &test) {
  run_ = std::make_shared<Run>();
  Run &r = *run_;
  r.geometry = make_geometry(test);
  r.mode = mode_;
  r.file = test.file;
  r.comm = test.comm;
  r.rank = test.rank;
  r.verify = test.module->verify;
  r.use_view = test.module->use_file_view;
  r.units = test.spec->phases.at(0).work_units;
  if (test.spec->phases.size() != 1 || test.spec->phases[0].time_budget_s > 0)
    throw Error("pattern modules run one count-driven phase per test",
                "remove time budgets from this pattern's tests");

  // Calls per unit every rank makes in no-view collective mode: the maximum over ranks.
  std::int64_t pieces = 0;
  for (std::int64_t u = 0; u < r.units; ++u)
    pieces = std::max<std::int64_t>(
        pieces, static_cast<std::int64_t>(r.geometry->extents(r.rank, u).size()));
  mpi_check(MPI_Allreduce(&pieces, &r.max_pieces, 1, MPI_INT64_T, MPI_MAX, r.comm),
            "MPI_Allreduce");

  // Read-type modes need the data in the file first (thesis §3.3.2: init "can set up any
  // files for read tests"); written untimed, generation 0, then synced for all ranks.
  if (needs_prepared_file(mode_)) {
    for (std::int64_t u = 0; u < r.units; ++u) {
      if (r.geometry->data_rank(r.rank, u) != r.rank)
        continue; // another rank prepares these bytes
      r.extents = r.geometry->extents(r.rank, u);
      r.bytes = 0;
      for (const auto &e : r.extents)
        r.bytes += e.length;
      r.stream.assign(static_cast<size_t>(r.bytes), 0);
      std::int64_t pos = 0;
      for (const auto &e : r.extents) {
        stamp_fill(r.stream.data() + pos, e.length, r.rank, e.offset, 0);
        Datatype t = contiguous_bytes(e.length);
        if (e.length > 0)
          mpi_check(MPI_File_write_at(r.file, e.offset, r.stream.data() + pos, 1, t.get(),
                                      MPI_STATUS_IGNORE),
                    "MPI_File_write_at");
        pos += e.length;
      }
    }
    mpi_check(MPI_File_sync(r.file), "MPI_File_sync");
    mpi_check(MPI_Barrier(r.comm), "MPI_Barrier");
    mpi_check(MPI_File_sync(r.file), "MPI_File_sync");
  }
}

void PatternModule::before_work_unit(UnitContext &unit) {
  Run &r = *run_;
  r.prepare_unit(unit.unit);
  switch (r.mode) {
  case TemporalMode::Write:
    if (r.verify)
      r.stamp(0);
    break;
  case TemporalMode::ReWrite:
    // The first write is untimed; only the second is (thesis §3.4.2).
    r.stamp(0);
    r.write(unit.collective);
    if (unit.flush)
      mpi_check(MPI_File_sync(r.file), "MPI_File_sync");
    if (r.verify)
      r.stamp(1);
    break;
  case TemporalMode::ReRead:
    // The first read is untimed; only the second is (thesis §3.4.2).
    r.read(unit.collective);
    if (r.verify)
      std::fill(r.stream.begin(), r.stream.end(), 0),
          std::fill(r.buffer.begin(), r.buffer.end(), 0);
    break;
  case TemporalMode::Read:
  case TemporalMode::ReadModifyWrite:
    break;
  }
}

std::int64_t PatternModule::work_unit(UnitContext &unit) {
  Run &r = *run_;
  switch (r.mode) {
  case TemporalMode::Write:
  case TemporalMode::ReWrite:
    r.write(unit.collective);
    if (unit.flush)
      mpi_check(MPI_File_sync(r.file), "MPI_File_sync");
    return r.bytes;
  case TemporalMode::Read:
  case TemporalMode::ReRead:
    r.read(unit.collective);
    return r.bytes;
  case TemporalMode::ReadModifyWrite:
    r.read(unit.collective);
    r.modify();
    r.write(unit.collective);
    if (unit.flush)
      mpi_check(MPI_File_sync(r.file), "MPI_File_sync");
    return 2 * r.bytes; // both directions move data (thesis §4.2.2)
  }
  return 0;
}

void PatternModule::after_work_unit(UnitContext &) {
  Run &r = *run_;
  if (!r.verify)
    return;
  switch (r.mode) {
  case TemporalMode::Write:
    r.check(r.read_back(), 0, 0, "written data read back");
    break;
  case TemporalMode::ReWrite:
    r.check(r.read_back(), 1, 0, "re-written data read back");
    break;
  case TemporalMode::Read:
  case TemporalMode::ReRead:
    r.from_memory();
    r.check(r.stream, 0, 0, "data read");
    break;
  case TemporalMode::ReadModifyWrite:
    r.check(r.read_back(), 0, kModifyMask, "modified data read back");
    break;
  }
}

void PatternModule::cleanup_test(TestContext &) { run_.reset(); }

} // namespace pio::patterns
