#pragma once
/// A phase's per-operation latencies (Interface::report_latencies, docs/reference/timing.md "Queue
/// depth"): each rank's histogram, merged over the test's ranks into the results' OpLatencies
/// with fio's clat percentiles.

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include <boost/histogram.hpp>

#include "pio/io/interface.hpp"
#include "pio/results.hpp"

namespace pio::harness {

/// One rank's latencies of one phase: a histogram of log-spaced bins (200 a decade from 10 ns to
/// 1000 s, so a bin is 1.16 % wide; shorter and longer ones in its under- and overflow bins) and
/// the exact count, sum, minimum and maximum.
class LatencyRecorder final : public io::LatencySink {
public:
  LatencyRecorder();
  /// One operation's latency.
  void record(double seconds) override;
  /// Forgets everything recorded (a new phase).
  void clear();
  /// Operations recorded.
  std::int64_t count() const { return count_; }

private:
  friend std::optional<OpLatencies> reduce_latencies(MPI_Comm, const LatencyRecorder &);
  using Axis = boost::histogram::axis::regular<double, boost::histogram::axis::transform::log>;
  using Histogram =
      boost::histogram::histogram<std::tuple<Axis>, boost::histogram::dense_storage<std::uint64_t>>;
  Histogram bins_;
  std::int64_t count_ = 0;
  double sum_ = 0, min_ = 0, max_ = 0;
};

/// Collective over `all` (every rank of the test): the latencies every rank recorded, on its
/// root; nothing when no rank recorded any, and on the other ranks.
std::optional<OpLatencies> reduce_latencies(MPI_Comm all, const LatencyRecorder &mine);

} // namespace pio::harness
