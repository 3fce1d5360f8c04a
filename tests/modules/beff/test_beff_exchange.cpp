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
    for (std::int64_t length : {std::int64_t{1}, std::int64_t{4096}, std::int64_t{40000}})
      for (int m = 0; m < 3; ++m) {
        Exchange x;
        x.prepare(comm, me, p.steps[static_cast<size_t>(me)], length);
        x.stamp();
        x.clear_received();
        x.run(static_cast<Method>(m));
        const std::string bad = x.check();
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
  x.prepare(MPI_COMM_WORLD, me, p.steps[static_cast<size_t>(me)], 16);
  x.stamp();
  x.clear_received();
  x.run(Method::Alltoallv);
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  const auto &mine = p.steps[static_cast<size_t>(me)];
  // At most 2 processes left and right are one partner: one step (b_eff 3.6).
  const bool second = n <= 2 ? mine.size() == 1 : mine.size() == 2 && mine[1].from == left;
  REQUIRE(pio::test::all_ranks(mine[0].from == right && second && x.check().empty()));
}
