#pragma once
/// The timed intervals of a phase-scope window and the length of their union over the ranks
/// (TimingScope phase, docs/reference/timing.md).

#include <mpi.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace pio::harness {

/// One timed interval [start, end] after the rank's window start (the exit of B1), in seconds
/// or, while the window runs, in the ticks of its clock.
struct Interval {
  double start = 0; ///< after the window start
  double end = 0;   ///< after the window start, >= start
};

/// A sorted list of disjoint intervals (touching ones already merged).
using IntervalList = std::vector<Interval>;

/// The union of two sorted lists of disjoint intervals: sorted, disjoint, touching or
/// overlapping intervals merged into one.
IntervalList merge_union(const IntervalList &a, const IntervalList &b);

/// The summed length of a sorted list of disjoint intervals.
double total_length(const IntervalList &list);

/// The length of the union of every rank's list (each sorted and disjoint, as UnitIntervals
/// records them); 0 for no intervals.
double union_length(const std::vector<IntervalList> &ranks);

/// One rank's timed intervals of a window, in the order they happen. Memory: 16 bytes per
/// interval kept, at most one per work unit plus two (the wear-out stop, a flush); an interval
/// that starts where the last one ended extends it. A million units take 16 MB per rank; the root's
/// merge holds at most the union of all ranks' lists (ranks in step overlap, so about one rank's),
/// and one list is sent as one message of 2 x count doubles, so a rank's list stays below 2^30
/// intervals.
class UnitIntervals {
public:
  /// Starts an empty record for the window that begins at window_start (a reading of the
  /// window's clock, as every reading passed below: MPI_Wtime, or the WindowClock's ticks).
  explicit UnitIntervals(double window_start) : window_start_(window_start) {}
  /// Records the timed interval [start, end] (readings, start after the last end).
  void add(double start, double end);
  /// Extends the last interval (one recorded after the last cut) to end (a reading): a meeting
  /// that follows a unit at once is timed with it.
  void extend(double end);
  /// Ends the prefix: later intervals never merge into those recorded so far (the wear-out
  /// stop, whose prefix is timed on its own).
  /// Returns how many intervals that prefix holds.
  std::size_t cut() { return kept_ = list_.size(); }
  /// The intervals so far, sorted and disjoint.
  const IntervalList &list() const { return list_; }
  /// Hands the intervals over (to union_length), leaving the record empty.
  IntervalList release() {
    kept_ = 0;
    return std::exchange(list_, {});
  }

private:
  double window_start_;
  IntervalList list_;
  std::size_t kept_ = 0; ///< the first interval that later ones may extend
};

/// The length of the union over the ranks of comm of their lists (each sorted and disjoint),
/// on every rank. Collective: the lists are merged up a binomial tree (each step's union
/// replaces the two lists it merged) on a duplicate of comm, and the root broadcasts the length.
double union_length(MPI_Comm comm, IntervalList mine);

} // namespace pio::harness
