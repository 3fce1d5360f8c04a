#pragma once
// TraceRanks: which run rank replays which of the trace's ranks (docs/guides/replay.md).

#include <cstdint>
#include <string>

namespace pio::replay {

/// How the trace's T ranks map onto the run's P.
enum class RankMapping {
  Exact,  ///< trace rank t is run rank t; a trace rank the run does not have is an error
  Modulo, ///< trace rank t is run rank t mod P
  Scaled, ///< trace rank t is run rank floor(t x P / T): each run rank a block of T/P trace ranks
};

/// "exact", "modulo", "scaled".
const char *to_string(RankMapping m);
/// Parses one of to_string's words; throws pio::Error otherwise.
RankMapping parse_rank_mapping(const std::string &text);

/// The run rank (0 .. run_ranks-1) that replays trace rank t of a trace of trace_ranks ranks;
/// -1 under Exact when the run has no rank t.
std::int64_t run_rank(RankMapping m, std::int64_t t, std::int64_t trace_ranks, int run_ranks);

} // namespace pio::replay
