// The union of the ranks' timed intervals (TimingScope phase, docs/reference/timing.md): the pure
// merge and length, the record of one rank's intervals, and the merge over the ranks of a
// communicator.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"
#include "run/unit_intervals.hpp"

using pio::harness::Interval;
using pio::harness::IntervalList;
using pio::harness::merge_union;
using pio::harness::union_length;
using pio::harness::UnitIntervals;
using pio::test::all_ranks;

namespace {

bool same(const IntervalList &a, const IntervalList &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].start != Approx(b[i].start) || a[i].end != Approx(b[i].end))
      return false;
  return true;
}

/// Rank r's intervals in the MPI test: one overlapping its neighbours', one of its own.
IntervalList intervals_of(int r) {
  const double x = r;
  return {{x, x + 1.5}, {10 + 2 * x, 10 + 2 * x + 1}};
}

} // namespace

TEST_CASE("union_length: overlapping, nested, disjoint, touching, empty, one rank",
          "[unit_intervals]") {
  // Overlapping: [0,2] and [1,3] cover [0,3].
  CHECK(union_length({{{0, 2}}, {{1, 3}}}) == Approx(3));
  // Nested: [1,2] inside [0,4] adds nothing.
  CHECK(union_length({{{0, 4}}, {{1, 2}}}) == Approx(4));
  // Disjoint: the lengths add up, the gap between them does not count.
  CHECK(union_length({{{0, 1}}, {{5, 7}}}) == Approx(3));
  // Touching: [0,1] and [1,2] are one interval of 2.
  CHECK(union_length({{{0, 1}}, {{1, 2}}}) == Approx(2));
  // Empty: no ranks, ranks without intervals, zero-length intervals.
  CHECK(union_length(std::vector<IntervalList>{}) == 0);
  CHECK(union_length({{}, {}}) == 0);
  CHECK(union_length({{{3, 3}}, {}}) == 0);
  // One rank: its own disjoint intervals, gaps (its hooks) left out.
  CHECK(union_length({{{0, 1}, {2, 3.5}, {4, 4.25}}}) == Approx(2.75));
  // Two ranks taking turns (the serialised writers): the turns fill the window, each rank's
  // gaps are the other's work.
  CHECK(union_length({{{0, 1}, {2, 3}}, {{1, 2}, {3, 4}}}) == Approx(4));
  // Only a gap every rank is in leaves: [2,3] is nobody's.
  CHECK(union_length({{{0, 1}, {3, 4}}, {{0.5, 2}, {3.5, 5}}, {{4, 4.5}}}) == Approx(4));
}

TEST_CASE("merge_union keeps a sorted disjoint list", "[unit_intervals]") {
  CHECK(same(merge_union({{0, 1}, {4, 5}}, {{0.5, 2}, {3, 4}, {6, 7}}), {{0, 2}, {3, 5}, {6, 7}}));
  CHECK(same(merge_union({}, {{1, 2}}), {{1, 2}}));
  CHECK(same(merge_union({{1, 2}}, {}), {{1, 2}}));
  CHECK(merge_union({}, {}).empty());
  CHECK(same(merge_union({{0, 10}}, {{1, 2}, {3, 4}}), {{0, 10}}));
}

TEST_CASE(
    "UnitIntervals: times from the window start, touching intervals merged, extended, a cut kept",
    "[unit_intervals]") {
  UnitIntervals rec(100.0);
  rec.add(100.5, 101.0);
  rec.add(101.0, 101.5); // touches: extends the last
  rec.add(102.0, 103.0);
  CHECK(same(rec.list(), {{0.5, 1.5}, {2.0, 3.0}}));
  CHECK(rec.cut() == 2);
  rec.add(103.0, 104.0); // touches, but after the cut: kept apart
  rec.add(104.0, 104.5); // extends the interval after the cut
  CHECK(same(rec.list(), {{0.5, 1.5}, {2.0, 3.0}, {3.0, 4.5}}));
  rec.extend(105.0); // a meeting right after the unit: timed with it
  CHECK(same(rec.list(), {{0.5, 1.5}, {2.0, 3.0}, {3.0, 5.0}}));
  rec.cut();
  rec.extend(106.0); // nothing after the cut to extend
  CHECK(same(rec.list(), {{0.5, 1.5}, {2.0, 3.0}, {3.0, 5.0}}));
  const IntervalList taken = rec.release();
  CHECK(taken.size() == 3);
  CHECK(rec.list().empty());
}

// 4 ranks: the 3-rank communicator (not a power of two) and ranks with empty lists between others
// exist only at 4 ranks.
TEST_CASE("union_length over a communicator: every rank gets the union of all ranks' lists",
          "[unit_intervals][4ranks]") {
  const int n = pio::test::size(), r = pio::test::rank();
  std::vector<IntervalList> all;
  for (int k = 0; k < n; ++k)
    all.push_back(intervals_of(k));
  const double expected = union_length(all);
  const double got = union_length(MPI_COMM_WORLD, intervals_of(r));
  INFO("rank " << r << " of " << n << ": " << got << ", expected " << expected);
  bool ok = got == Approx(expected);
  // An empty list on some ranks, and a communicator whose size is not a power of two.
  const double with_empty = union_length(MPI_COMM_WORLD, r % 2 ? IntervalList{} : intervals_of(r));
  std::vector<IntervalList> even;
  for (int k = 0; k < n; k += 2)
    even.push_back(intervals_of(k));
  ok = ok && with_empty == Approx(union_length(even));
  MPI_Comm three = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, r < 3 ? 0 : 1, r, &three);
  int tn = 0;
  MPI_Comm_size(three, &tn);
  std::vector<IntervalList> first;
  for (int k = (r < 3 ? 0 : 3); k < (r < 3 ? 0 : 3) + tn; ++k)
    first.push_back(intervals_of(k));
  ok = ok && union_length(three, intervals_of(r)) == Approx(union_length(first));
  MPI_Comm_free(&three);
  CHECK(ok);
  REQUIRE(all_ranks(ok));
}
