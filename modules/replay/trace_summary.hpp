#pragma once
// What the trace says the traced program did on the replayed file, before the replay runs
// (docs/guides/replay.md, "The trace summary"): per direction its operations and bytes, the size
// histogram, the share of sequential operations (each starting where the same process's previous
// one in that direction ended), and the recorded bandwidth (bytes over the union of the
// operations' intervals, as TimingScope phase times the replay; and over the span from the
// first start to the last end, compute included).

#include <cstdint>
#include <map>
#include <utility>

#include "busy_time.hpp"
#include "trace_op.hpp"

namespace pio::replay {

/// One direction's figures.
struct DirectionSummary {
  std::int64_t ops = 0;        ///< operations that moved bytes
  std::int64_t bytes = 0;      ///< bytes moved
  std::int64_t sequential = 0; ///< operations that start where the process's previous one ended
  std::int64_t followers = 0;  ///< operations with a previous one of the same process
  double first_start = 0;      ///< earliest start (seconds, trace clock)
  double last_end = 0;         ///< latest end
  BusyTime busy;               ///< union of the intervals
  /// Operations by size class k: [2^k, 2^(k+1)) bytes.
  std::map<int, std::int64_t> sizes;

  /// Sequential share of the operations that have a predecessor (NaN when none has).
  double sequential_share() const;
  /// bytes / busy seconds in MiB/s (NaN when the busy time is 0: operations shorter than the
  /// trace's clock, DXT's 0.1 ms).
  double busy_bandwidth_MiBps() const;
  /// bytes / (last end - first start) in MiB/s (NaN when that is 0).
  double span_bandwidth_MiBps() const;
};

/// The summary of the operations of one file (one layer).
class TraceSummary {
public:
  /// Adds one operation of the file (any length; zero-length ones are not counted).
  void add(const TraceOp &op);
  /// The figures of one direction.
  const DirectionSummary &of(OpKind k) const { return k == OpKind::Read ? read_ : write_; }
  /// Seconds in which the file saw a read or a write (the union over both directions).
  double busy_seconds() const { return both_.seconds(); }

private:
  DirectionSummary read_, write_;
  BusyTime both_;
  std::map<std::pair<std::int64_t, int>, std::int64_t> last_end_; // (rank, kind) -> end offset
};

/// The size class of n > 0 bytes: floor(log2 n).
int size_class(std::int64_t n);

} // namespace pio::replay
