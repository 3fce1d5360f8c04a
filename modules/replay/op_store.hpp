#pragma once
// The replayed operations, by run rank and in replay order (start time, then the trace's order),
// within a memory budget: a trace larger than memory is streamed into it, and what exceeds the
// budget is sorted on disk (an external merge sort) in unlinked files under the spill directory
// (TMPDIR, else /tmp), which vanish with the process however it ends. Every rank builds its own
// store (the pattern engine evaluates any rank's extents on any rank), then reads it by
// (rank, index) through a small cache of blocks.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pio::replay {

/// One operation as the replay needs it.
struct StoredOp {
  std::int64_t offset = 0;
  std::int64_t length = 0;
  double start = 0; ///< seconds, trace clock
  double end = 0;
  std::int64_t line = 0; ///< the trace line
};

/// Operations by run rank, built once then read.
class OpStore {
public:
  /// Holds at most about `budget_bytes` of operations in memory while built and read; spills
  /// beyond it to unlinked files in `spill_dir`.
  OpStore(std::int64_t budget_bytes, std::string spill_dir);
  ~OpStore();
  OpStore(const OpStore &) = delete;
  OpStore &operator=(const OpStore &) = delete;

  /// Adds an operation of trace rank `trace_rank`, in the trace's order.
  void add(std::int64_t trace_rank, const StoredOp &op);
  /// Ends building: trace rank t goes to run rank map(t) of `run_ranks` (negative: dropped),
  /// each run rank's operations sorted by start time, equal starts in the trace's order.
  void finish(const std::function<std::int64_t(std::int64_t)> &map, int run_ranks);

  /// Operations of run rank r.
  std::int64_t count(int r) const;
  /// Operation i of run rank r (0 <= i < count(r)).
  StoredOp at(int r, std::int64_t i) const;
  /// Operations added.
  std::int64_t added() const { return added_; }
  /// Whether the operations went to disk (the budget was exceeded).
  bool spilled() const { return final_ != nullptr; }

  /// Records one run of an external sort holds per chunk (the budget over a record's size).
  std::int64_t chunk_records() const { return chunk_; }

private:
  struct Record {
    std::int64_t rank; // trace rank while building, run rank once sorted
    std::int64_t seq;  // the order added
    StoredOp op;
  };
  class File;
  void spill_chunk();
  void merge_runs(int run_ranks);

  std::int64_t chunk_;
  std::string dir_;
  std::int64_t added_ = 0;
  std::vector<Record> pending_;     // the chunk being built
  std::unique_ptr<File> spill_;     // raw chunks, then sorted runs
  std::unique_ptr<File> final_;     // StoredOp by run rank (spilled stores)
  std::vector<StoredOp> memory_;    // StoredOp by run rank (stores within the budget)
  std::vector<std::int64_t> begin_; // run rank r's first index, r = 0 .. run_ranks
  // Read cache of the final file: blocks of kBlock operations, direct-mapped.
  static constexpr std::int64_t kBlock = 512;
  mutable std::vector<std::int64_t> cached_block_;
  mutable std::vector<std::vector<StoredOp>> cache_;
};

/// The directory the stores spill to: $TMPDIR, else /tmp.
std::string spill_directory();

} // namespace pio::replay
