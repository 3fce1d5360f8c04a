#include "run/unit_intervals.hpp"

#include <algorithm>

#include "pio/mpi_handles.hpp"

namespace pio::harness {

namespace {

/// Appends iv to out, merging it into out's last interval where they touch or overlap.
void append(IntervalList &out, const Interval &iv) {
  if (!out.empty() && iv.start <= out.back().end)
    out.back().end = std::max(out.back().end, iv.end);
  else
    out.push_back(iv);
}

} // namespace

IntervalList merge_union(const IntervalList &a, const IntervalList &b) {
  IntervalList out;
  out.reserve(a.size() + b.size());
  auto i = a.begin(), j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && i->start <= j->start))
      append(out, *i++);
    else
      append(out, *j++);
  }
  return out;
}

double total_length(const IntervalList &list) {
  double sum = 0;
  for (const Interval &iv : list)
    sum += iv.end - iv.start;
  return sum;
}

double union_length(const std::vector<IntervalList> &ranks) {
  IntervalList all;
  for (const IntervalList &r : ranks)
    all = merge_union(all, r);
  return total_length(all);
}

void UnitIntervals::add(double start, double end) {
  const Interval iv{start - window_start_, std::max(start, end) - window_start_};
  if (list_.size() > kept_)
    append(list_, iv); // merges into the last interval where they touch
  else
    list_.push_back(iv); // never into the prefix before the last cut
}

void UnitIntervals::extend(double end) {
  if (list_.size() > kept_)
    list_.back().end = std::max(list_.back().end, end - window_start_);
}

double union_length(MPI_Comm comm, IntervalList mine) {
  // A communicator of its own: no message of the module's on comm can meet the merge's.
  MPI_Comm raw = MPI_COMM_NULL;
  mpi_check(MPI_Comm_dup(comm, &raw), "MPI_Comm_dup");
  const Comm tree(raw);
  int rank = 0, size = 1;
  MPI_Comm_rank(tree.get(), &rank);
  MPI_Comm_size(tree.get(), &size);
  static_assert(sizeof(Interval) == 2 * sizeof(double), "an Interval travels as two doubles");
  // Binomial tree: at step s a rank with bit s set sends its merged list to rank - s and is
  // done; the others receive from rank + s (if there is one) and merge.
  for (int step = 1; step < size; step <<= 1) {
    if (rank & step) {
      mpi_check(MPI_Send(mine.data(), static_cast<int>(2 * mine.size()), MPI_DOUBLE, rank - step, 0,
                         tree.get()),
                "MPI_Send");
      break;
    }
    if (rank + step < size) {
      MPI_Status status;
      mpi_check(MPI_Probe(rank + step, 0, tree.get(), &status), "MPI_Probe");
      int doubles = 0;
      MPI_Get_count(&status, MPI_DOUBLE, &doubles);
      IntervalList theirs(static_cast<std::size_t>(doubles / 2));
      mpi_check(MPI_Recv(theirs.data(), doubles, MPI_DOUBLE, rank + step, 0, tree.get(),
                         MPI_STATUS_IGNORE),
                "MPI_Recv");
      mine = merge_union(mine, theirs);
    }
  }
  double length = rank == 0 ? total_length(mine) : 0;
  mpi_check(MPI_Bcast(&length, 1, MPI_DOUBLE, 0, tree.get()), "MPI_Bcast");
  return length;
}

} // namespace pio::harness
