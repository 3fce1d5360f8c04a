// b_eff's three methods (b_eff paper §4, "On communication methods") on every pattern at the
// run's size: each message arrives, with its sender's contents, from the neighbour the pattern
// names (for a ring, step 0 from the right neighbour, step 1 from the left).
#include <catch2/catch.hpp>

#include "exchange.hpp"
#include "lengths.hpp"
#include "mpi_test.hpp"
#include "patterns.hpp"

using namespace pio::b_eff;

TEST_CASE("every method delivers every message of every pattern", "[beff]") {
  const int n = pio::test::size(), me = pio::test::rank();
  PatternChoice choice;
  choice.random_count = 3;
  const auto patterns = all_patterns(n, choice);
  bool ok = true;
  std::string first_error;
  for (const Pattern &p : patterns) {
    const bool in = me < p.participants;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, me, &comm);
    if (!in)
      continue;
    for (std::int64_t length : {std::int64_t{1}, std::int64_t{4096}, std::int64_t{40001}})
      for (int m = 0; m < 3; ++m)
        for (Stamp stamp : {Stamp::Ends, Stamp::All}) {
          Exchange x;
          x.reserve(40001);
          x.prepare(comm, me, p.steps[static_cast<size_t>(me)], length, stamp);
          // five executions: through the walked buffers and round past their end
          std::string bad;
          for (int e = 0; e < 5 && bad.empty(); ++e)
            bad = x.run(static_cast<Method>(m));
          if (!bad.empty() && first_error.empty())
            first_error = p.name + " " + method_name(static_cast<Method>(m)) + ": " + bad;
          ok = ok && bad.empty();
          std::int64_t sends = 0;
          for (const Step &s : p.steps[static_cast<size_t>(me)])
            sends += s.to != kNone ? 1 : 0;
          ok = ok && x.bytes_sent() == length * sends;
        }
    MPI_Comm_free(&comm);
  }
  INFO(first_error);
  REQUIRE(pio::test::all_ranks(ok));
}

TEST_CASE("a ring's step 0 comes from the right neighbour", "[beff]") {
  const int n = pio::test::size(), me = pio::test::rank();
  const Pattern p = ring(6, n); // one ring of all
  Exchange x;
  x.prepare(MPI_COMM_WORLD, me, p.steps[static_cast<size_t>(me)], 16, Stamp::All);
  const std::string bad = x.run(Method::Alltoallv);
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  const auto &mine = p.steps[static_cast<size_t>(me)];
  // At most 2 processes left and right are one partner: one step (b_eff 3.6).
  const bool second = n <= 2 ? mine.size() == 1 : mine.size() == 2 && mine[1].from == left;
  REQUIRE(pio::test::all_ranks(mine[0].from == right && second && bad.empty()));
}

TEST_CASE("each execution takes the next block of b_eff 3.6's buffers, wrapping at the end",
          "[beff]") {
  const int n = pio::test::size(), me = pio::test::rank();
  const Pattern p = ring(6, n);
  const auto &mine = p.steps[static_cast<size_t>(me)];
  Exchange x;
  x.reserve(40001);
  // (L + 16) x 6 bytes, b_eff.c's buflng = (Lmax + 16) * MAXSR
  bool ok = x.walk_bytes() == (40001 + 16) * 6;
  x.prepare(MPI_COMM_WORLD, me, mine, 40001);
  // every peer's messages start 8-aligned: 40008 bytes, or 2 x 40008 for two neighbours
  const std::int64_t block = mine.size() == 2 && mine[0].to != mine[1].to ? 80016 : 40008;
  ok = ok && x.block_bytes() == block;
  std::vector<std::int64_t> at;
  for (int e = 0; e < 8; ++e) {
    ok = ok && x.run(Method::Nonblocking).empty();
    at.push_back(x.last_block());
  }
  const std::int64_t fit = x.walk_bytes() / block; // blocks before the walk wraps
  for (int e = 0; e < 8; ++e)
    ok = ok && at[static_cast<size_t>(e)] == (e % fit) * block;
  // The walk goes on across prepare (b_eff.c's base runs through the whole measurement).
  x.prepare(MPI_COMM_WORLD, me, mine, 40001);
  ok = ok && x.run(Method::Sendrecv).empty() && x.last_block() == (8 % fit) * block;
  INFO("rank " << me << " block " << x.block_bytes() << " walk " << x.walk_bytes());
  REQUIRE(pio::test::all_ranks(ok));
}

TEST_CASE("a message from another execution is reported with its byte and sender", "[beff]") {
  const int n = pio::test::size(), me = pio::test::rank();
  if (n < 2)
    return; // a ring of one sends to itself: both ends of every message are the same rank
  const Pattern p = ring(6, n);
  for (Stamp stamp : {Stamp::Ends, Stamp::All}) {
    Exchange x;
    x.prepare(MPI_COMM_WORLD, me, p.steps[static_cast<size_t>(me)], 4096, stamp);
    bool ok = x.run(Method::Sendrecv).empty();
    // Rank 0 starts counting again; everybody else is at execution 1: every message between
    // rank 0 and a neighbour carries the other execution's stamp.
    if (me == 0)
      x.prepare(MPI_COMM_WORLD, me, p.steps[static_cast<size_t>(me)], 4096, stamp);
    const std::string bad = x.run(Method::Sendrecv);
    const bool next_to_0 = me == 0 || me == 1 || me == n - 1;
    ok = ok && (next_to_0 ? bad.find(" of the message from rank ") != std::string::npos &&
                                bad.find(", expected ") != std::string::npos
                          : bad.empty());
    INFO("rank " << me << ": " << bad);
    REQUIRE(pio::test::all_ranks(ok));
  }
}
