#pragma once
// The replay block's figure (docs/guides/replay.md, "The figure"): the replay's bandwidth beside
// the traced program's own on the same operations, the trace summary, and what was not replayed.
// Modules never print: the harness's reporters render it.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pio/results.hpp"
#include "rank_map.hpp"
#include "trace_format.hpp"
#include "trace_load.hpp"
#include "trace_summary.hpp"

namespace pio::replay {

/// What the figure says about the block's trace, besides its summary.
struct ReplayFacts {
  std::string trace; ///< Trace
  TraceFormat format = TraceFormat::Dxt;
  std::string file; ///< the traced file replayed
  Layer layer = Layer::Posix;
  RankMapping mapping = RankMapping::Exact;
  std::int64_t trace_ranks = 0;
  int run_ranks = 1;
  std::int64_t files = 0;
  OpSelection ops = OpSelection::Writes;
  std::string mode;                ///< the temporal mode the operations are replayed in
  std::string timing;              ///< Timing
  double scale = 1;                ///< recorded gaps x scale (Timing scaled)
  std::int64_t units = 0;          ///< work units (operations of the busiest rank, capped)
  std::int64_t capped_ops = 0;     ///< operations beyond WorkUnits, not replayed
  std::int64_t replayed_ops = 0;   ///< over all ranks (before the cap)
  std::int64_t replayed_bytes = 0; ///< over all ranks (before the cap)
  std::map<std::string, std::int64_t> not_replayed;
  bool spilled = false;    ///< the operations went to disk (beyond TraceMemory)
  std::int64_t memory = 0; ///< TraceMemory
};

/// The figure of a block from its facts, the trace summary and the block's results.
Figure make_figure(const ReplayFacts &facts, const TraceSummary &summary,
                   const ModuleResult &results);

} // namespace pio::replay
