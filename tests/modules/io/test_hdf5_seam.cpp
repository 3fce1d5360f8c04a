// The hdf5 backend (backends/hdf5), opened through Backend::open: units of interleaved,
// strided, irregular, reversed and empty extent lists written independently and collectively
// land byte-exact in the dataset (read back with plain HDF5 calls, not the seam) and read back
// through the seam; the H5* options take effect in the file; what HDF5 has no call for is refused
// and an HDF5 failure is a pio::Error naming the call on every rank.
#include <catch2/catch.hpp>
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends.hpp"
#include "mpi_test.hpp"
#include "pio/error.hpp"

namespace io = pio::io;
using pio::test::all_ranks;

namespace {

/// The byte at dataset offset `at` in case `c`: offset-dependent, so a misplaced byte shows.
std::uint8_t byte_at(std::int64_t at, int c) {
  return static_cast<std::uint8_t>((at * 131 + at / 251 + c * 7 + 1) & 0xff);
}

/// One piece of a unit's span and the rank that owns it.
struct Segment {
  std::int64_t offset = 0, length = 0;
  int owner = 0;
};

/// The segments of unit u tiling [base, ...) in file order, by kind (u % 4): 0 one length,
/// round robin (each rank one regular hyperslab); 1 and 2 irregular lengths and owners (a union
/// of hyperslabs, some adjacent, in unit 5 hundreds of them: combined halves rather than one by
/// one; in 2 each rank lists its extents backwards: staged); 3 every rank but
/// the last (at one rank: nobody, an empty unit), so one rank calls with nothing.
std::vector<Segment> unit_segments(int u, int size, std::int64_t base) {
  std::vector<Segment> s;
  std::int64_t at = base;
  auto add = [&](std::int64_t length, int owner) {
    s.push_back(Segment{at, length, owner});
    at += length;
  };
  switch (u % 4) {
  case 0:
    for (int k = 0; k < 8 * size; ++k)
      add(512, k % size);
    break;
  case 1:
  case 2:
    for (int k = 0; k < (u == 5 ? 200 : 12) * size + 3; ++k) // unit 5: hundreds of runs
      add(100 + (k * 37 + u) % 211, (k * k + k / 3 + u) % size);
    break;
  default:
    for (int k = 0; size > 1 && k < 6 * size; ++k)
      add(300 + 7 * k, k % (size - 1));
  }
  return s;
}

constexpr int kUnits = 7;

/// What one rank moves in one unit: its extents (stream order) and the stream's bytes.
struct Unit {
  std::vector<io::Extent> extents;
  std::vector<std::uint8_t> stream;
};

/// This rank's units and the dataset's size.
std::vector<Unit> plan(int rank, int size, int c, std::int64_t &total) {
  std::vector<Unit> units;
  std::int64_t base = 0;
  for (int u = 0; u < kUnits; ++u) {
    Unit mine;
    for (const Segment &s : unit_segments(u, size, base)) {
      if (s.owner == rank)
        mine.extents.push_back(io::Extent{s.offset, s.length});
      base = s.offset + s.length;
    }
    if (u % 4 == 2)
      std::reverse(mine.extents.begin(), mine.extents.end());
    for (const io::Extent &e : mine.extents)
      for (std::int64_t k = 0; k < e.length; ++k)
        mine.stream.push_back(byte_at(e.offset + k, c));
    units.push_back(std::move(mine));
  }
  total = base;
  return units;
}

io::Transfer transfer_of(Unit &u, io::Direction d, io::Coordination c, io::Completion m,
                         MPI_Request *req) {
  io::Transfer t;
  t.direction = d;
  t.coordination = c;
  t.completion = m;
  t.buffer = u.stream.empty() ? nullptr : u.stream.data();
  t.count = static_cast<int>(u.stream.size());
  t.offset = u.extents.empty() ? 0 : u.extents.front().offset;
  t.extents = u.extents.empty() ? nullptr : u.extents.data();
  t.extent_count = u.extents.size();
  t.request = req;
  return t;
}

/// Closes an hid_t of the test's plain HDF5 calls.
template <herr_t (*Close)(hid_t)> struct Owned {
  hid_t id;
  ~Owned() {
    if (id >= 0)
      Close(id);
  }
};

/// The dataset as plain HDF5 (serial driver, rank 0) sees it.
struct Dataset {
  std::vector<std::uint8_t> bytes;
  H5D_layout_t layout = H5D_LAYOUT_ERROR;
  hsize_t chunk = 0;
  haddr_t address = HADDR_UNDEF;     ///< contiguous: where the data starts in the file
  haddr_t first_chunk = HADDR_UNDEF; ///< chunked: where chunk 0 starts
};

Dataset read_dataset(const std::string &path) {
  Dataset d;
  Owned<H5Fclose> f{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)};
  Owned<H5Dclose> set{H5Dopen2(f.id, "data", H5P_DEFAULT)};
  Owned<H5Sclose> space{H5Dget_space(set.id)};
  Owned<H5Pclose> dcpl{H5Dget_create_plist(set.id)};
  if (f.id < 0 || set.id < 0 || space.id < 0 || dcpl.id < 0)
    throw std::runtime_error("plain HDF5 could not open the dataset of " + path);
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space.id, &n, nullptr);
  d.bytes.resize(n);
  if (n > 0 && H5Dread(set.id, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.bytes.data()) < 0)
    throw std::runtime_error("plain H5Dread failed on " + path);
  d.layout = H5Pget_layout(dcpl.id);
  if (d.layout == H5D_CHUNKED) {
    H5Pget_chunk(dcpl.id, 1, &d.chunk);
    hsize_t offset = 0, size = 0;
    unsigned mask = 0;
    H5Dget_chunk_info(set.id, space.id, 0, &offset, &mask, &d.first_chunk, &size);
  } else {
    d.address = H5Dget_offset(set.id);
  }
  return d;
}

/// Creates an empty file at path (rank 0) as the harness's claim does, and waits.
void claim(const std::string &path) {
  if (pio::test::rank() == 0)
    std::fclose(std::fopen(path.c_str(), "w"));
  MPI_Barrier(MPI_COMM_WORLD);
}

/// Writes every unit through the seam, then closes.
void write_units(io::OpenFile &f, std::vector<Unit> &units, std::int64_t total,
                 io::Coordination coord, io::Completion m) {
  f.io().shape(total);
  for (Unit &u : units) {
    MPI_Request req = MPI_REQUEST_NULL;
    io::Transfer t = transfer_of(u, io::Direction::Write, coord, m, &req);
    f.io().run(t);
  }
  f.io().sync();
  f.close();
}

/// Reads every unit through the seam into fresh buffers; true when each is the expected stream.
bool read_units_back(io::OpenFile &f, std::vector<Unit> &units, std::int64_t total,
                     io::Coordination coord, io::Completion m) {
  f.io().shape(total);
  bool ok = true;
  for (Unit &u : units) {
    Unit got{u.extents, std::vector<std::uint8_t>(u.stream.size(), 0)};
    MPI_Request req = MPI_REQUEST_NULL;
    io::Transfer t = transfer_of(got, io::Direction::Read, coord, m, &req);
    const std::int64_t moved = f.io().run(t);
    CHECK(moved == static_cast<std::int64_t>(u.stream.size()));
    CHECK(req == MPI_REQUEST_NULL);
    ok = ok && moved == static_cast<std::int64_t>(u.stream.size()) && got.stream == u.stream;
  }
  f.close();
  return ok;
}

/// The number of bytes of d that differ from case c's stamps.
std::int64_t mismatches(const Dataset &d, int c) {
  std::int64_t bad = 0;
  for (std::size_t k = 0; k < d.bytes.size(); ++k)
    bad += d.bytes[k] != byte_at(static_cast<std::int64_t>(k), c);
  return bad;
}

/// Rank 0: the dataset holds case c's stamps, contiguous, at HDF5's own (unaligned) place.
bool written_plainly(const std::string &path, std::int64_t total, int c) {
  const Dataset d = read_dataset(path);
  CHECK(d.bytes.size() == static_cast<std::size_t>(total));
  CHECK(mismatches(d, c) == 0);
  CHECK(d.layout == H5D_CONTIGUOUS);
  // HDF5's own placement, not a multiple of the alignment the tuned case asks for.
  CHECK(d.address % 65536 != 0);
  return d.bytes.size() == static_cast<std::size_t>(total) && mismatches(d, c) == 0 &&
         d.layout == H5D_CONTIGUOUS && d.address % 65536 != 0;
}

/// Rank 0: the dataset holds case c's stamps, in chunks of `chunk` bytes (0: contiguous), its
/// data (chunk 0) at a multiple of `alignment`.
bool written_tuned(const std::string &path, int c, std::int64_t chunk, hsize_t alignment) {
  const Dataset d = read_dataset(path);
  CHECK(mismatches(d, c) == 0);
  const haddr_t at = chunk > 0 ? d.first_chunk : d.address;
  CHECK(d.layout == (chunk > 0 ? H5D_CHUNKED : H5D_CONTIGUOUS));
  CHECK(d.chunk == hsize_t(chunk));
  CHECK(at != HADDR_UNDEF);
  CHECK(at > 0);
  CHECK(at % alignment == 0);
  return mismatches(d, c) == 0 && d.layout == (chunk > 0 ? H5D_CHUNKED : H5D_CONTIGUOUS) &&
         d.chunk == hsize_t(chunk) && at != HADDR_UNDEF && at > 0 && at % alignment == 0;
}

} // namespace

TEST_CASE("units of extent lists written through the hdf5 interface land byte-exact in its "
          "dataset and read back through it",
          "[io][hdf5]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const int rank = pio::test::rank(), size = pio::test::size();
  int c = 0;
  for (auto coord : {io::Coordination::Independent, io::Coordination::Collective})
    for (auto m : {io::Completion::Blocking, io::Completion::NonBlocking}) {
      ++c;
      const std::string what = std::string(io::to_string(m)) + " " + io::to_string(coord);
      INFO(what);
      const std::string path = dir.file("case" + std::to_string(c) + ".h5");
      std::int64_t total = 0;
      std::vector<Unit> units = plan(rank, size, c, total);
      const auto o = pio::test::backend("hdf5");
      claim(path); // the empty file the harness creates: the seam makes it an HDF5 file
      {
        auto f = o->open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                         {{"romio_cb_write", "enable"}});
        const auto hints = f->hints_in_effect();
        const auto cb = hints.find("romio_cb_write");
        CHECK(cb != hints.end());
        REQUIRE(all_ranks(cb != hints.end() && cb->second == "enable"));
        write_units(*f, units, total, coord, m);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      REQUIRE(pio::test::on_root([&] { return written_plainly(path, total, c); }));
      // The previous repetition's file: opened (not truncated), read-only.
      auto f = o->open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, {});
      const bool ok = read_units_back(*f, units, total, coord, m);
      CHECK(ok);
      REQUIRE(all_ranks(ok));
    }
}

TEST_CASE("H5ChunkSize, H5Alignment and the metadata options take effect in the file",
          "[io][hdf5]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const int rank = pio::test::rank(), size = pio::test::size();
  for (std::int64_t chunk : {std::int64_t(0), std::int64_t(4096)}) {
    INFO("chunk " << chunk);
    const int c = 10 + static_cast<int>(chunk % 7);
    const std::string path = dir.file("tuned" + std::to_string(chunk) + ".h5");
    std::int64_t total = 0;
    std::vector<Unit> units = plan(rank, size, c, total);
    const auto o = pio::test::backend("hdf5", {{"H5ChunkSize", {std::to_string(chunk)}},
                                               {"H5Alignment", {"64K"}},
                                               {"H5CollectiveMetadata", {"on"}},
                                               {"H5MetaBlockSize", {"8K"}}});
    claim(path);
    {
      auto f = o->open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, {});
      write_units(*f, units, total, io::Coordination::Collective, io::Completion::Blocking);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    REQUIRE(pio::test::on_root([&] { return written_tuned(path, c, chunk, 65536); }));
    // A later repetition with the same options opens the dataset and reads it back.
    auto f = o->open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, {});
    const bool ok =
        read_units_back(*f, units, total, io::Coordination::Collective, io::Completion::Blocking);
    CHECK(ok);
    REQUIRE(all_ranks(ok));
  }
}

TEST_CASE("the hdf5 interface refuses what HDF5 has no call for, naming it", "[io][hdf5]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const std::string path = dir.file("refused.h5");
  const auto o = pio::test::backend("hdf5");
  claim(path);
  auto f = o->open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, {});
  f->io().shape(4096);
  std::vector<std::uint8_t> buf(64, 1);
  const io::Extent e{64L * pio::test::rank(), 64};
  auto refusal = [&](io::Transfer t) {
    t.buffer = buf.data();
    t.count = 64;
    t.extents = &e;
    t.extent_count = 1;
    try {
      f->io().start(t);
    } catch (const pio::Error &err) {
      return std::string(err.what());
    }
    return std::string();
  };
  io::Transfer split;
  split.coordination = io::Coordination::Collective;
  split.completion = io::Completion::Split;
  const std::string s = refusal(split);
  CHECK(s == "the hdf5 interface has no split collective write on the explicit offset");
  io::Transfer shared;
  shared.positioning = io::Positioning::SharedPointer;
  const std::string sh = refusal(shared);
  CHECK(sh == "the hdf5 interface has no blocking independent write on the shared file pointer");
  io::Transfer pointer;
  pointer.direction = io::Direction::Read;
  pointer.positioning = io::Positioning::IndividualPointer;
  const std::string p = refusal(pointer);
  CHECK(p.find("individual file pointer") != std::string::npos);
  MPI_Datatype strided = MPI_DATATYPE_NULL; // 2 bytes of every 4: not contiguous memory
  MPI_Type_vector(1, 2, 4, MPI_BYTE, &strided);
  MPI_Type_create_resized(strided, 0, 4, &strided);
  MPI_Type_commit(&strided);
  io::Transfer gappy;
  const std::string g = [&] {
    gappy.datatype = strided;
    gappy.buffer = buf.data();
    gappy.count = 16;
    gappy.extents = &e;
    gappy.extent_count = 1;
    try {
      f->io().start(gappy);
    } catch (const pio::Error &err) {
      return std::string(err.what());
    }
    return std::string();
  }();
  MPI_Type_free(&strided);
  CHECK(g.find("contiguous bytes") != std::string::npos);
  f->close();
  REQUIRE(all_ranks(s.find("split") != std::string::npos &&
                    sh.find("shared file pointer") != std::string::npos &&
                    p.find("individual file pointer") != std::string::npos &&
                    g.find("contiguous bytes") != std::string::npos));
}

TEST_CASE("an HDF5 failure is a pio error naming the call and the path on every rank",
          "[io][hdf5]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const auto o = pio::test::backend("hdf5");
  const std::string missing = dir.file("no-such-dir/f.h5");
  std::string message;
  try {
    o->open(MPI_COMM_WORLD, missing, MPI_MODE_CREATE | MPI_MODE_RDWR, {});
  } catch (const pio::Error &e) {
    message = e.what();
  }
  INFO(message);
  const std::string head = "H5Fcreate(\"" + missing + "\") failed: ";
  CHECK(message.rfind(head, 0) == 0);
  CHECK(message.size() > head.size() + 10); // HDF5's own message follows
  REQUIRE(all_ranks(message.rfind(head, 0) == 0));

  // An empty file opened without MPI_MODE_CREATE (a read before any write) is refused.
  const std::string empty = dir.file("empty.h5");
  claim(empty);
  std::string refused;
  try {
    o->open(MPI_COMM_WORLD, empty, MPI_MODE_RDONLY, {});
  } catch (const pio::Error &e) {
    refused = e.what();
  }
  CHECK(refused == empty + " is not an HDF5 file and the test opens it without creating it");
  REQUIRE(all_ranks(refused.find("is not an HDF5 file") != std::string::npos));
}

TEST_CASE("the hdf5 backend's library_versions names HDF5's version", "[io][hdf5]") {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  const auto &info = pio::test::backend_info("hdf5");
  REQUIRE(info.library_versions);
  const auto v = info.library_versions();
  const std::string want =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
  CHECK(major >= 1);
  CHECK(v.count("hdf5") == 1);
  CHECK(v.at("hdf5") == want);
  REQUIRE(all_ranks(v.count("hdf5") == 1 && v.at("hdf5") == want));
}
