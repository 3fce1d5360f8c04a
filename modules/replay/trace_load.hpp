#pragma once
// A trace read for one replay block (docs/guides/replay.md): its format told or guessed, the one
// traced file the block replays chosen (TraceFile), its operations of one layer (TraceLayer) and
// kind (TraceOps) kept in replay order per run rank (TraceRanks) within a memory budget
// (TraceMemory), the rest counted, and the whole file summarised. Streaming: the trace is read
// once, line by line. MPI-free: every rank reads the trace itself.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "op_store.hpp"
#include "rank_map.hpp"
#include "trace_format.hpp"
#include "trace_op.hpp"
#include "trace_summary.hpp"

namespace pio::replay {

/// Which traced operations become the block's work units (TraceOps).
enum class OpSelection { Writes, Reads, All };

/// "writes", "reads", "all".
const char *to_string(OpSelection s);

/// What to read and keep.
struct TraceRequest {
  std::string path;                  ///< Trace
  std::optional<TraceFormat> format; ///< TraceFormat; nothing: guessed
  std::string file_pattern;          ///< TraceFile glob; "": the trace's only file
  Layer layer = Layer::Posix;        ///< TraceLayer (DXT)
  OpSelection ops = OpSelection::Writes;
  RankMapping mapping = RankMapping::Exact;
  int run_ranks = 1;                         ///< processes of the run
  std::int64_t header = 0;                   ///< HeaderOffset, added to every offset
  std::int64_t memory_budget = 64 << 20;     ///< TraceMemory
  std::string spill_dir = spill_directory(); ///< where a store beyond the budget goes
  bool keep_ops = true; ///< false (the pre-flight check): read, check and summarise only
};

/// What one block replays of the trace.
struct LoadedTrace {
  TraceFormat format = TraceFormat::Dxt;
  std::string file;             ///< the replayed file's path as traced
  std::int64_t trace_ranks = 0; ///< the trace's ranks (DXT nprocs, else the highest + 1)
  std::int64_t files = 0;       ///< traced files with reads or writes
  TraceSummary summary;         ///< the replayed file in the replayed layer, both directions
  /// What the engine cannot replay, by what it is (e.g. "openat", "reads (TraceOps writes)").
  std::map<std::string, std::int64_t> not_replayed;
  std::unique_ptr<OpStore> store;         ///< the replayed operations (keep_ops)
  std::vector<std::int64_t> ops_per_rank; ///< replayed operations of each run rank
  std::int64_t replayed_ops = 0;          ///< over all run ranks
  std::int64_t replayed_bytes = 0;        ///< over all run ranks
  double first_start = 0;                 ///< the earliest replayed start (trace clock)
  std::int64_t file_end = 0;              ///< header + the end of the furthest replayed op
};

/// Reads `request.path`. Throws pio::DirectiveError naming the directive at fault: Trace for a
/// trace that cannot be read or is not its format (the message at "trace:line"), TraceFile when
/// no traced file or several match, TraceLayer when the file has only the other layer's
/// records, TraceOps when it has none of the kind asked for, TraceRanks for a trace rank the run
/// does not have (exact).
LoadedTrace load_trace(const TraceRequest &request);

} // namespace pio::replay
