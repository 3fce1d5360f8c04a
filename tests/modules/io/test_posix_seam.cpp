// The posix backend (backends/posix): each extent of a transfer lands at its offset, taking
// consecutive bytes of memory (byte-exact file, data read back); the individual file pointer
// moves contiguous bytes where seek put it and advances; Collective runs independently,
// NonBlocking completes in start(); the shared file pointer, split transfers, transfers without
// extents and non-contiguous memory are refused with messages naming what; open follows
// MPI-IO's amode (no O_CREAT without MPI_MODE_CREATE); errors name the call, the path, the
// offset and errno's text; O_DIRECT is refused on tmpfs (/dev/shm) and on misaligned
// transfers, and works on ext4 (/var/tmp) with 4 KiB transfers. Every rank works on a file of
// its own; the verdict is reduced over the ranks.
#include <catch2/catch.hpp>

#include <sys/vfs.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends.hpp"
#include "mpi_test.hpp"
#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"
#include "seam_calls.hpp"

namespace io = pio::io;
using pio::test::Aligned;
using pio::test::all_ranks;
using pio::test::contains;
using pio::test::error_of;
using pio::test::exists;
using pio::test::my_file;
using pio::test::rank;
using pio::test::read_bytes;
using pio::test::TempDir;
using pio::test::transfer;

namespace {

/// Opens path through the seam's dispatch with Interface posix.
std::unique_ptr<io::OpenFile> open_posix(const std::string &path, bool direct = false,
                                         int amode = MPI_MODE_RDWR | MPI_MODE_CREATE) {
  return pio::test::backend("posix", {{"ODirect", {direct ? "on" : "off"}}})
      ->open(MPI_COMM_SELF, path, amode, {});
}

} // namespace

TEST_CASE("posix seam: one pwrite per extent, memory consumed in stream order", "[posix_seam]") {
  TempDir dir;
  const std::string path = my_file(dir, "extents");
  // Out of file order, with a hole, unequal lengths; the rank shifts the data.
  const std::vector<io::Extent> extents = {{100, 10}, {0, 5}, {50, 20}};
  std::vector<std::uint8_t> stream(35);
  for (size_t i = 0; i < stream.size(); ++i)
    stream[i] = static_cast<std::uint8_t>(i * 7 + rank() + 1);
  auto file = open_posix(path);
  REQUIRE(all_ranks(file->hints_in_effect().empty()));
  io::Interface &seam = file->io();
  const auto w = transfer(io::Direction::Write, stream.data(), 35, extents);
  REQUIRE(all_ranks(seam.run(w) == 35));
  seam.sync();
  // The image: each extent its slice of the stream, the holes zero, the file 110 bytes.
  std::vector<std::uint8_t> expect(110, 0);
  size_t pos = 0;
  for (const auto &e : extents)
    for (std::int64_t i = 0; i < e.length; ++i)
      expect[static_cast<size_t>(e.offset + i)] = stream[pos++];
  REQUIRE(all_ranks(read_bytes(path) == expect));

  // Read back through the seam, collective (made independent: no other rank takes part) and
  // non-blocking (done in start, the request null), asking for the real count.
  std::vector<std::uint8_t> back(35, 0);
  MPI_Request request = MPI_REQUEST_NULL;
  auto r = transfer(io::Direction::Read, back.data(), 35, extents);
  r.coordination = io::Coordination::Collective;
  r.completion = io::Completion::NonBlocking;
  r.request = &request;
  r.count_moved = true;
  bool alone = true;
  if (rank() == 0) // a collective on one rank alone: it must not wait for the others
    alone =
        seam.start(r) == 0 && request == MPI_REQUEST_NULL && seam.finish(r) == 35 && back == stream;
  REQUIRE(all_ranks(alone));
  // A read past the end of file moves what is there, as MPI-IO reports it.
  const std::vector<io::Extent> tail = {{105, 10}};
  std::vector<std::uint8_t> part(10, 0);
  auto t = transfer(io::Direction::Read, part.data(), 10, tail);
  t.count_moved = true;
  REQUIRE(all_ranks(seam.run(t) == 5));
  // Count 0 without extents is nothing (a collective's empty share).
  REQUIRE(all_ranks(seam.run(transfer(io::Direction::Write, stream.data(), 0, {})) == 0));
  file->close();
  REQUIRE(all_ranks(read_bytes(path) == expect));
}

TEST_CASE("posix seam: what POSIX cannot do is refused, naming it", "[posix_seam]") {
  TempDir dir;
  const std::string path = my_file(dir, "refused");
  auto file = open_posix(path);
  io::Interface &seam = file->io();
  std::vector<std::uint8_t> b(64, 1);
  const std::vector<io::Extent> one = {{0, 64}};

  auto pointer = transfer(io::Direction::Write, b.data(), 64, one);
  pointer.positioning = io::Positioning::SharedPointer;
  const std::string p = error_of([&] { seam.run(pointer); });
  INFO(p);
  REQUIRE(all_ranks(contains(p, "Interface posix has no blocking write on the shared file "
                                "pointer")));
  const std::string view = error_of([&] { seam.set_view(0, MPI_BYTE, MPI_BYTE); });
  INFO(view);
  REQUIRE(all_ranks(contains(view, "no MPI file views (capability file_views)")));

  auto split = transfer(io::Direction::Read, b.data(), 64, one);
  split.coordination = io::Coordination::Collective;
  split.completion = io::Completion::Split;
  const std::string s = error_of([&] { seam.start(split); });
  INFO(s);
  REQUIRE(all_ranks(contains(s, "no split read") && contains(s, "Interface mpiio")));

  const std::string none =
      error_of([&] { seam.run(transfer(io::Direction::Write, b.data(), 64, {})); });
  INFO(none);
  REQUIRE(all_ranks(contains(none, "without its file extents")));

  const std::string cover =
      error_of([&] { seam.run(transfer(io::Direction::Write, b.data(), 32, one)); }); // 32 vs 64
  INFO(cover);
  REQUIRE(all_ranks(contains(cover, "32 bytes in memory whose extents cover 64")));

  MPI_Datatype v = MPI_DATATYPE_NULL; // 8 blocks of 4 bytes, 8 apart: not contiguous memory
  MPI_Type_vector(8, 4, 8, MPI_BYTE, &v);
  const pio::Datatype strided(v);
  auto gappy = transfer(io::Direction::Write, b.data(), 1, {{0, 32}});
  gappy.datatype = strided.get();
  const std::string g = error_of([&] { seam.run(gappy); });
  INFO(g);
  REQUIRE(all_ranks(contains(g, "must be contiguous bytes")));

  auto nonblocking = transfer(io::Direction::Write, b.data(), 64, one);
  nonblocking.completion = io::Completion::NonBlocking;
  const std::string nb = error_of([&] { seam.start(nonblocking); });
  REQUIRE(all_ranks(contains(nb, "needs Transfer::request")));
  // Nothing of the refused transfers reached the file.
  file->close();
  REQUIRE(all_ranks(read_bytes(path).empty()));
}

TEST_CASE("posix seam: the individual file pointer moves contiguous bytes where seek put it, and "
          "advances past them",
          "[posix_seam]") {
  TempDir dir;
  const std::string path = my_file(dir, "pointer");
  auto file = open_posix(path);
  io::Interface &seam = file->io();
  std::vector<std::uint8_t> a(40), b(24);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = static_cast<std::uint8_t>(k + 1);
  for (size_t k = 0; k < b.size(); ++k)
    b[k] = static_cast<std::uint8_t>(0x80 + k);
  seam.seek(100);
  auto first = transfer(io::Direction::Write, a.data(), 40, {});
  first.positioning = io::Positioning::IndividualPointer;
  auto second = transfer(io::Direction::Write, b.data(), 24, {});
  second.positioning = io::Positioning::IndividualPointer;
  REQUIRE(all_ranks(seam.run(first) == 40 && seam.run(second) == 24)); // at 100, then at 140
  seam.seek(120); // read back across the two writes, counting what moved
  std::vector<std::uint8_t> back(44, 0);
  auto r = transfer(io::Direction::Read, back.data(), 44, {});
  r.positioning = io::Positioning::IndividualPointer;
  r.count_moved = true;
  REQUIRE(all_ranks(seam.run(r) == 44));
  std::vector<std::uint8_t> expect(164, 0);
  std::copy(a.begin(), a.end(), expect.begin() + 100);
  std::copy(b.begin(), b.end(), expect.begin() + 140);
  REQUIRE(all_ranks(back == std::vector<std::uint8_t>(expect.begin() + 120, expect.end())));
  std::vector<std::uint8_t> more(8, 0);
  auto tail = transfer(io::Direction::Read, more.data(), 8, {}); // the pointer is at 164: EOF
  tail.positioning = io::Positioning::IndividualPointer;
  tail.count_moved = true;
  REQUIRE(all_ranks(seam.run(tail) == 0));
  file->close();
  REQUIRE(all_ranks(read_bytes(path) == expect));
}

TEST_CASE("posix seam: open follows MPI-IO's amode; failures name the call, path, offset and "
          "errno's text",
          "[posix_seam]") {
  TempDir dir;
  const std::string missing = my_file(dir, "missing");
  // No MPI_MODE_CREATE: no O_CREAT, the file is not made.
  const std::string m = error_of([&] { open_posix(missing, false, MPI_MODE_RDWR); });
  INFO(m);
  REQUIRE(all_ranks(contains(m, "open(" + missing + "): No such file or directory")));
  REQUIRE(all_ranks(!exists(missing)));
  const std::string path = my_file(dir, "there");
  open_posix(path)->close(); // MPI_MODE_CREATE makes it
  REQUIRE(all_ranks(exists(path)));
  const std::string excl =
      error_of([&] { open_posix(path, false, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL); });
  REQUIRE(all_ranks(contains(excl, "File exists")));
  // Writing a file opened read-only: pwrite's own error, with path and offset.
  auto ro = open_posix(path, false, MPI_MODE_RDONLY);
  std::vector<std::uint8_t> b(16, 3);
  const std::vector<io::Extent> at = {{4096, 16}};
  const std::string w =
      error_of([&] { ro->io().run(transfer(io::Direction::Write, b.data(), 16, at)); });
  INFO(w);
  REQUIRE(all_ranks(contains(w, "pwrite of " + path +
                                    " at offset 4096 (16 bytes): Bad file "
                                    "descriptor")));
  // MPI-IO hints have no POSIX meaning.
  const std::string h = error_of([&] {
    pio::test::backend("posix")->open(MPI_COMM_SELF, path, MPI_MODE_RDWR, {{"cb_nodes", "2"}});
  });
  REQUIRE(all_ranks(contains(h, "takes no MPI-IO hints") && contains(h, "cb_nodes=2")));
}

TEST_CASE("posix seam: O_DIRECT is refused on tmpfs, with the fix", "[posix_seam][odirect]") {
  struct statfs fs;
  REQUIRE(all_ranks(statfs("/dev/shm", &fs) == 0 && fs.f_type == 0x01021994)); // TMPFS_MAGIC
  TempDir shm("/dev/shm");
  const std::string path = my_file(shm, "direct");
  const std::string e = error_of([&] { open_posix(path, true); });
  INFO(e);
  REQUIRE(all_ranks(contains(e, "open(" + path + ", O_DIRECT): the file is on tmpfs") &&
                    contains(e, "set ODirect off, or put TestFile on a file system with direct "
                                "I/O")));
}

TEST_CASE("posix seam: O_DIRECT on ext4 with 4 KiB transfers; misaligned ones refused",
          "[posix_seam][odirect]") {
  struct statfs fs;
  REQUIRE(all_ranks(statfs("/var/tmp", &fs) == 0 && fs.f_type == 0xEF53)); // EXT4_SUPER_MAGIC
  TempDir disk("/var/tmp");
  const std::string path = my_file(disk, "direct");
  auto file = open_posix(path, true);
  io::Interface &seam = file->io();
  Aligned out(8192), in(8192);
  REQUIRE(all_ranks(out.p != nullptr && in.p != nullptr));
  for (int i = 0; i < 8192; ++i)
    out.bytes()[i] = static_cast<std::uint8_t>(i * 13 + rank());
  const std::vector<io::Extent> extents = {{8192, 4096}, {0, 4096}};
  REQUIRE(all_ranks(seam.run(transfer(io::Direction::Write, out.p, 8192, extents)) == 8192));
  seam.sync();
  REQUIRE(all_ranks(seam.run(transfer(io::Direction::Read, in.p, 8192, extents)) == 8192));
  REQUIRE(all_ranks(std::equal(out.bytes(), out.bytes() + 8192, in.bytes())));

  const std::vector<io::Extent> odd = {{100, 4096}};
  const std::string off =
      error_of([&] { seam.run(transfer(io::Direction::Write, out.p, 4096, odd)); });
  INFO(off);
  REQUIRE(all_ranks(contains(off, "O_DIRECT pwrite of " + path +
                                      " at offset 100, 4096 bytes: "
                                      "offset and length must be multiples of") &&
                    contains(off, "(4096 always is), or set ODirect off")));
  const std::vector<io::Extent> short_one = {{0, 1000}};
  const std::string len =
      error_of([&] { seam.run(transfer(io::Direction::Read, in.p, 1000, short_one)); });
  REQUIRE(all_ranks(contains(len, "O_DIRECT pread") && contains(len, "must be multiples of")));
  const std::vector<io::Extent> page = {{0, 4096}};
  const std::string mem =
      error_of([&] { seam.run(transfer(io::Direction::Write, out.bytes() + 1, 4096, page)); });
  INFO(mem);
  REQUIRE(all_ranks(contains(mem, "memory alignment O_DIRECT needs")));
  file->close();
  // The file holds the 4 KiB transfers and nothing of the refused ones.
  const auto bytes = read_bytes(path);
  REQUIRE(all_ranks(bytes.size() == 12288 &&
                    std::equal(out.bytes() + 4096, out.bytes() + 8192, bytes.begin()) &&
                    std::equal(out.bytes(), out.bytes() + 4096, bytes.begin() + 8192)));
}
