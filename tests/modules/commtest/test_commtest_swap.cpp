// The SWAP engine of every COMMTEST protocol (COMMTEST description, "Unordered" / "Ordered"
// listings and the reorganised test) on pairs of ranks: each received buffer holds the
// partner's stamps, message i at bytes [i m, (i+1) m), after one SWAP - with one message or
// many, each sent once or repeated, basic or reorganised. At 4 ranks the pairs 0-2 and 1-3
// swap at the same time.
#include <catch2/catch.hpp>

#include <cstring>

#include "mpi_test.hpp"
#include "pio/mpi_handles.hpp"
#include "pio/stamp.hpp"
#include "swap.hpp"

using pio::test::all_ranks;

namespace {

/// The pair this rank belongs to: {0,1} at 2-3 ranks, {0,2} and {1,3} at 4 or more.
/// MPI_COMM_NULL for a rank without a partner.
pio::Comm pair_comm() {
  const int n = pio::test::size(), r = pio::test::rank();
  int color = MPI_UNDEFINED;
  if (n >= 4 && r < 4)
    color = r % 2;
  else if (n >= 2 && r < 2)
    color = 0;
  pio::Comm c;
  MPI_Comm_split(MPI_COMM_WORLD, color, r, c.out());
  return c;
}

int partner_world(MPI_Comm pair) {
  int me = pio::test::rank(), other = -1, prank = 0;
  MPI_Comm_rank(pair, &prank);
  MPI_Sendrecv(&me, 1, MPI_INT, 1 - prank, 9, &other, 1, MPI_INT, 1 - prank, 9, pair,
               MPI_STATUS_IGNORE);
  return other;
}

} // namespace

// 4 ranks: the pairs 0-2 and 1-3 swap at the same time.
TEST_CASE("every protocol and variant delivers every message in order",
          "[commtest][swap][4ranks]") {
  if (pio::test::size() < 2)
    return; // a SWAP needs a pair; the harness test covers the clear failure at one rank
  pio::Comm pair = pair_comm();
  bool ok = true;
  std::string failure;
  if (pair.get() != MPI_COMM_NULL) {
    const int me = pio::test::rank(), partner = partner_world(pair.get());
    const std::int64_t volume = 8192; // the 8KB experiment
    std::vector<std::uint8_t> send(volume), recv(volume), expected(volume);
    pio::stamp_fill(send.data(), volume, me, 0);
    pio::stamp_fill(expected.data(), volume, partner, 0);
    for (const commtest::Protocol &p : commtest::protocols())
      for (bool reorganised : {false, true}) {
        if (reorganised && !p.reorganisable())
          continue;
        for (std::int64_t n : {1, 8, 64})
          for (std::int64_t repeats : {1, 3}) {
            std::memset(recv.data(), 0xA5, recv.size());
            commtest::Swap swap({&p, reorganised, volume, n, repeats}, pair.get(), send.data(),
                                recv.data());
            swap.prepare();
            MPI_Barrier(pair.get());
            const std::int64_t sent = swap.run();
            const bool good = sent == volume * repeats && recv == expected;
            if (!good && failure.empty())
              failure = "(" + p.id() + ") " + (reorganised ? "reorganised" : "basic") +
                        " N=" + std::to_string(n) + " repeats=" + std::to_string(repeats);
            ok = ok && good;
          }
      }
  }
  INFO(failure);
  CHECK(failure.empty());
  REQUIRE(all_ranks(ok));
}

TEST_CASE("a SWAP refuses a group that is not a pair and N that do not divide the volume",
          "[commtest][swap]") {
  std::vector<std::uint8_t> buf(1024);
  const commtest::Protocol &p = commtest::protocols().at(0);
  bool ok = true;
  try {
    commtest::Swap s({&p, false, 1024, 1, 1}, MPI_COMM_SELF, buf.data(), buf.data());
    ok = false;
  } catch (const pio::Error &e) {
    ok = std::string(e.what()).find("needs a pair") != std::string::npos;
  }
  if (pio::test::size() >= 2) {
    pio::Comm pair = pair_comm();
    if (pair.get() != MPI_COMM_NULL)
      try {
        commtest::Swap s({&p, false, 1024, 3, 1}, pair.get(), buf.data(), buf.data());
        ok = false;
      } catch (const pio::Error &e) {
        ok = ok && std::string(e.what()).find("do not divide") != std::string::npos;
      }
  }
  REQUIRE(all_ranks(ok));
}
