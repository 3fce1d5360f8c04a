// The I/O seam's MPI-IO interface: every positioning x coordination x completion x direction
// moves exactly the expected bytes (written data read back, read data checked, byte-exact) with
// exactly the expected MPI-IO call, and the combinations MPI-IO has no call for are refused.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "call_log.hpp"
#include "mpi_test.hpp"
#include "mpiio_io.hpp"
#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"

namespace io = pio::io;
using pio::test::all_ranks;

namespace {

/// Bytes each rank moves: unequal per rank, not a multiple of anything, so a misplaced or short
/// transfer shows.
std::int64_t bytes_of(int rank) { return 4099 + 17 * rank; }
/// Where rank r's bytes start in the file (rank order, no gaps).
std::int64_t start_of(int rank) {
  std::int64_t at = 0;
  for (int r = 0; r < rank; ++r)
    at += bytes_of(r);
  return at;
}
/// The byte at file offset `at` in case `c`.
std::uint8_t byte_at(std::int64_t at, int c) {
  return static_cast<std::uint8_t>((at * 131 + at / 251 + c * 7 + 1) & 0xff);
}

/// The call the seam must make for t (MPI-3.1 §13.4, Table 13.1).
std::string expected_call(const io::Transfer &t) {
  const bool coll = t.coordination == io::Coordination::Collective;
  const std::string v = t.direction == io::Direction::Write ? "write" : "read";
  std::string pos;
  switch (t.positioning) {
  case io::Positioning::ExplicitOffset:
    pos = coll ? "_at_all" : "_at";
    break;
  case io::Positioning::IndividualPointer:
    pos = coll ? "_all" : "";
    break;
  case io::Positioning::SharedPointer:
    pos = coll ? "_ordered" : "_shared";
    break;
  }
  switch (t.completion) {
  case io::Completion::Blocking:
    return "MPI_File_" + v + pos;
  case io::Completion::NonBlocking:
    return "MPI_File_i" + v + pos;
  case io::Completion::Split:
    return "MPI_File_" + v + pos + "_begin";
  }
  return "";
}

std::string split_end(const io::Transfer &t) {
  std::string s = expected_call(t);
  return s.substr(0, s.size() - 5) + "end";
}

/// Whether MPI-IO has a call for t.
bool exists(const io::Transfer &t) {
  const bool coll = t.coordination == io::Coordination::Collective;
  if (t.completion == io::Completion::Split)
    return coll;
  if (t.completion == io::Completion::NonBlocking)
    return !(coll && t.positioning == io::Positioning::SharedPointer);
  return true;
}

/// Opens `path` on every rank (created), with the byte view.
MPI_File open_file(const std::string &path) {
  MPI_File f = MPI_FILE_NULL;
  pio::mpi_check(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR,
                               MPI_INFO_NULL, &f),
                 "MPI_File_open");
  return f;
}

void sync_all(MPI_File f) {
  pio::mpi_check(MPI_File_sync(f), "MPI_File_sync");
  pio::mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  pio::mpi_check(MPI_File_sync(f), "MPI_File_sync");
}

/// Places this rank's pointer (individual or shared) at its start, as a caller of the seam does.
void position(MPI_File f, const io::Transfer &t, int rank) {
  if (t.positioning == io::Positioning::IndividualPointer)
    pio::mpi_check(MPI_File_seek(f, start_of(rank), MPI_SEEK_SET), "MPI_File_seek");
  else if (t.positioning == io::Positioning::SharedPointer)
    pio::mpi_check(MPI_File_seek_shared(f, 0, MPI_SEEK_SET), "MPI_File_seek_shared");
}

/// Makes t through the seam, logging the calls; an independent transfer on the shared pointer
/// goes in rank turns so its bytes land in rank order. Returns what the seam reported moved.
std::int64_t make(io::Interface &seam, io::Transfer t, MPI_Request *req,
                  std::vector<std::string> &made) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool turns = t.positioning == io::Positioning::SharedPointer &&
                     t.coordination == io::Coordination::Independent;
  std::int64_t moved = 0;
  for (int turn = 0; turn < (turns ? size : 1); ++turn) {
    if (!turns || turn == rank) {
      t.request = req;
      pio::test::clear_calls();
      moved = seam.start(t);
      made = pio::test::calls();
      pio::test::clear_calls();
      const std::int64_t finished = seam.finish(t);
      if (t.completion != io::Completion::Blocking)
        moved = finished;
      for (const auto &c : pio::test::calls())
        made.push_back(c);
    }
    if (turns)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  return moved;
}

} // namespace

// 4 ranks: through the shared file pointer rank r's bytes follow those of every rank before it, of
// other lengths.
TEST_CASE("every MPI-IO transfer through the seam moves the expected bytes with its call",
          "[io][seam][4ranks]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const int rank = pio::test::rank(), size = pio::test::size();
  const std::int64_t total = start_of(size), mine = bytes_of(rank), first = start_of(rank);
  int c = 0;
  for (auto dirn : {io::Direction::Write, io::Direction::Read})
    for (auto pos : {io::Positioning::ExplicitOffset, io::Positioning::IndividualPointer,
                     io::Positioning::SharedPointer})
      for (auto coord : {io::Coordination::Independent, io::Coordination::Collective})
        for (auto comp :
             {io::Completion::Blocking, io::Completion::NonBlocking, io::Completion::Split}) {
          ++c;
          io::Transfer t;
          t.direction = dirn;
          t.positioning = pos;
          t.coordination = coord;
          t.completion = comp;
          const std::string what = std::string(io::to_string(comp)) + " " + io::to_string(coord) +
                                   " " + io::to_string(dirn) + " on the " + io::to_string(pos);
          INFO(what);
          const std::string path = dir.file("case" + std::to_string(c));
          MPI_File f = open_file(path);
          io::MpiIo seam(f);
          std::vector<std::uint8_t> buf(static_cast<size_t>(mine), 0);
          t.buffer = buf.data();
          t.count = static_cast<int>(mine);
          t.datatype = MPI_BYTE;
          t.offset = first;
          t.count_moved = true;
          const io::Extent covers{first, mine};
          t.extents = &covers;
          t.extent_count = 1;

          if (!exists(t)) {
            MPI_Request req = MPI_REQUEST_NULL;
            t.request = &req;
            bool refused = false;
            std::string message;
            try {
              seam.start(t);
            } catch (const pio::Error &e) {
              refused = true;
              message = e.what();
            }
            CHECK(io::MpiIo::call_name(t) == nullptr);
            CHECK(message.find(io::to_string(comp)) != std::string::npos);
            CHECK(message.find(io::to_string(pos)) != std::string::npos);
            REQUIRE(all_ranks(refused));
            MPI_File_close(&f);
            continue;
          }
          REQUIRE(io::MpiIo::call_name(t) == expected_call(t));

          // A read finds the whole file written (plain MPI, untimed, rank 0).
          if (dirn == io::Direction::Read) {
            if (rank == 0) {
              std::vector<std::uint8_t> all(static_cast<size_t>(total));
              for (std::int64_t k = 0; k < total; ++k)
                all[static_cast<size_t>(k)] = byte_at(k, c);
              pio::mpi_check(MPI_File_write_at(f, 0, all.data(), static_cast<int>(total), MPI_BYTE,
                                               MPI_STATUS_IGNORE),
                             "MPI_File_write_at");
            }
            sync_all(f);
          } else {
            for (std::int64_t k = 0; k < mine; ++k)
              buf[static_cast<size_t>(k)] = byte_at(first + k, c);
          }
          position(f, t, rank);
          MPI_Barrier(MPI_COMM_WORLD);

          MPI_Request req = MPI_REQUEST_NULL;
          std::vector<std::string> made;
          const std::int64_t moved = make(seam, t, &req, made);
          CHECK(moved == mine);
          std::vector<std::string> want{expected_call(t)};
          if (comp == io::Completion::Split)
            want.push_back(split_end(t));
          CHECK(made == want);
          CHECK(req == MPI_REQUEST_NULL);

          // The pointer the transfer used moved past this rank's bytes (shared: past all).
          if (pos == io::Positioning::IndividualPointer) {
            MPI_Offset at = -1;
            MPI_File_get_position(f, &at);
            CHECK(at == first + mine);
          } else if (pos == io::Positioning::SharedPointer) {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Offset at = -1;
            MPI_File_get_position_shared(f, &at);
            CHECK(at == total);
          }

          bool ok = true;
          if (dirn == io::Direction::Write) {
            // Every rank reads the whole file back and checks every rank's bytes.
            sync_all(f);
            MPI_Offset end = 0;
            MPI_File_get_size(f, &end);
            CHECK(end == total);
            std::vector<std::uint8_t> back(static_cast<size_t>(total), 0);
            pio::mpi_check(MPI_File_read_at(f, 0, back.data(), static_cast<int>(total), MPI_BYTE,
                                            MPI_STATUS_IGNORE),
                           "MPI_File_read_at");
            for (std::int64_t k = 0; k < total && ok; ++k)
              ok = back[static_cast<size_t>(k)] == byte_at(k, c);
          } else {
            for (std::int64_t k = 0; k < mine && ok; ++k)
              ok = buf[static_cast<size_t>(k)] == byte_at(first + k, c);
          }
          CHECK(ok);
          pio::mpi_check(MPI_File_close(&f), "MPI_File_close");
          REQUIRE(all_ranks(ok && moved == mine && made == want));
        }
  CHECK(c == 36);
}

TEST_CASE("non-blocking transfers complete together with wait_all", "[io][seam]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const int rank = pio::test::rank(), size = pio::test::size();
  const std::int64_t total = start_of(size), mine = bytes_of(rank), first = start_of(rank);
  MPI_File f = open_file(dir.file("halves"));
  io::MpiIo seam(f);
  std::vector<std::uint8_t> buf(static_cast<size_t>(mine));
  for (std::int64_t k = 0; k < mine; ++k)
    buf[static_cast<size_t>(k)] = byte_at(first + k, 99);
  // Two halves, both started before either completes (IMB-IO's non-blocking sample).
  std::vector<MPI_Request> reqs(2, MPI_REQUEST_NULL);
  const std::int64_t half = mine / 2;
  pio::test::clear_calls();
  for (int h = 0; h < 2; ++h) {
    io::Transfer t;
    t.completion = io::Completion::NonBlocking;
    t.buffer = buf.data() + h * half;
    t.count = static_cast<int>(h == 0 ? half : mine - half);
    t.offset = first + h * half;
    t.request = &reqs[static_cast<size_t>(h)];
    CHECK(seam.start(t) == 0);
  }
  seam.wait_all(reqs.data(), 2);
  CHECK(pio::test::calls() == std::vector<std::string>{"MPI_File_iwrite_at", "MPI_File_iwrite_at"});
  CHECK(reqs[0] == MPI_REQUEST_NULL);
  CHECK(reqs[1] == MPI_REQUEST_NULL);
  sync_all(f);
  std::vector<std::uint8_t> back(static_cast<size_t>(total), 0);
  MPI_File_read_at(f, 0, back.data(), static_cast<int>(total), MPI_BYTE, MPI_STATUS_IGNORE);
  bool ok = true;
  for (std::int64_t k = 0; k < total && ok; ++k)
    ok = back[static_cast<size_t>(k)] == byte_at(k, 99);
  CHECK(ok);
  MPI_File_close(&f);
  REQUIRE(all_ranks(ok));
}

TEST_CASE("an MPI-IO failure is a pio error naming the call", "[io][seam]") {
  setenv("PIO_TEST_TMPDIR", "/dev/shm", 0);
  pio::test::TempDir dir;
  const std::string path = dir.file("read-only");
  MPI_File f = open_file(path);
  MPI_File_close(&f);
  pio::mpi_check(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &f),
                 "MPI_File_open");
  io::MpiIo seam(f);
  char byte = 1;
  io::Transfer t; // a write on a file opened read-only
  t.buffer = &byte;
  t.count = 1;
  std::string message;
  try {
    seam.start(t);
  } catch (const pio::Error &e) {
    message = e.what();
  }
  CHECK(message.rfind("MPI_File_write_at failed: ", 0) == 0);
  MPI_File_close(&f);
  REQUIRE(all_ranks(message.rfind("MPI_File_write_at failed: ", 0) == 0));
}
