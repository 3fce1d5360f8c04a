#pragma once
/// The b_eff_io time schedule, MPI-free: every loop's share T/3 * U/ΣU, the running schedule that
/// keeps a partition to T, and the size-driven segments of pattern types 3 and 4 (b_eff_io paper
/// §5.1, §5.4).

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "beff_math.hpp"

namespace pio::beff_io {

/// Scheduled time of one pattern's loop: T/3 * U/ΣU (§5.1, §5.4).
double pattern_budget(double scheduled_time, int units, int sum_units);
/// b_eff_io 2.1's scheduled time of a time-driven write loop: T_n * U / U_sum with
/// T_n = T / partitions (T is shared by the partitions) and U_sum the time units of all three
/// access methods (150 for the full Table 2: 64 write + 22 rewrite of type 0 + 64 read; 192 when
/// every type is rewritten). Rewrite and read repeat the write's calls, so their units only
/// shrink the write's share.
double original_budget(double scheduled_time, int partitions, int units, int sum_units);
/// Smallest share of its scheduled time a pattern keeps when earlier patterns overran.
inline constexpr double kMinimumBudgetShare = 0.25;
/// The running schedule: a time-driven loop scheduled for `nominal` seconds gets what is left
/// after the partition's earlier patterns overran by `debt` seconds (their closing syncs and
/// last batches), never more than `nominal` and never less than kMinimumBudgetShare of it, so
/// the partition keeps to T.
double catch_up_budget(double nominal, double debt);
/// x rounded up to a multiple of m (m > 0).
std::int64_t round_up(std::int64_t x, std::int64_t m);

/// The running schedule of every partition, kept by the root (which alone decides when a
/// time-driven loop ends). Times are seconds on one clock (MPI_Wtime in the module).
class RunningSchedule {
public:
  /// Notes the start of a partition's first test; later calls for it change nothing.
  void start(int partition, double now);
  /// True once start() was called for the partition.
  bool started(int partition) const { return start_.count(partition) != 0; }
  /// Seconds since the partition started.
  double elapsed(int partition, double now) const;
  /// A loop scheduled `nominal` seconds starts now with budget `budget` (0: count-driven).
  /// Returns the budget it gets: a time-driven one loses what the partition is behind the
  /// scheduled time of the loops started before it (catch_up_budget); a count-driven one keeps
  /// 0. Either way the loop's `nominal` joins the schedule.
  double next_loop(int partition, double nominal, double budget, double now);

private:
  std::map<int, double> start_;  ///< partition -> start of its first test
  std::map<int, double> so_far_; ///< partition -> scheduled time of the loops started so far
};

/// What types 0-2 measured for one chunk size in the initial write: chunks per process and U.
struct ChunkMeasurement {
  std::int64_t chunks = 0; ///< chunks of l bytes each process wrote
  int U = 0;               ///< the pattern's time units
};

/// Repetition factor of a type 3/4 pattern with `units` time units from what types 0-2 measured
/// for the same l (§5.1, §5.4): time per chunk per time unit is averaged over the types (so the
/// segmented write is expected to take its U share at the average speed of types 0-2), then
/// inverted. At least 1; 1 when nothing was measured.
std::int64_t segment_repetitions(int units, const std::vector<ChunkMeasurement> &measured);
/// What the initial write of types 0-2 did with the chunk size of one type 3/4 pattern, as
/// b_eff_io 2.1 reads it (absent when that type or pattern was not run).
struct SegmentInputs {
  std::optional<std::int64_t> type0_chunks; ///< calls * L/l of the type 0 pattern (not 2)
  std::optional<std::int64_t> type1_calls;  ///< calls of the type 1 pattern
  std::optional<std::int64_t> type2_calls;  ///< calls of the type 2 pattern
};
/// Repetition factor of a type 3/4 pattern by b_eff_io 2.1: min(r0 * L/l, 10 * r1, r2) over
/// the types present; at least 1, and 1 when none was run.
std::int64_t original_segment_repetitions(const SegmentInputs &in);

/// LSEG: sum of l * repetitions over the segment's patterns, rounded up to 1 MB (§5.4); at
/// least 1 MB.
std::int64_t segment_size(const std::vector<std::pair<std::int64_t, std::int64_t>> &l_and_reps);

/// The segment of a type 3 or 4 file: how many units each pattern writes and where the fill
/// pattern starts.
struct Segment {
  std::vector<std::int64_t> units; ///< per pattern (in the type's order): units of its write
  std::int64_t size = 0;           ///< LSEG
  std::int64_t used = 0;           ///< bytes before the fill pattern
};

/// Sizes a type 3/4 segment (§5.1, §5.4): each pattern with U > 0 repeats as often as types 0-2
/// wrote chunks of the same l in the partition's initial write (`measured`: Table 2 number ->
/// units written, patterns of types 0-2 only; `table` gives their l, L and U), combined by
/// `definition` (Original: original_segment_repetitions; Paper: segment_repetitions), or
/// `fixed_units` times when that is set, never more than `cap` (per pattern; 0 = no cap);
/// U = 0 patterns run once, the fill pattern fills the rest of LSEG.
Segment size_segment(const std::vector<Pattern> &patterns, const std::vector<Pattern> &table,
                     const std::map<int, std::int64_t> &measured, std::int64_t fixed_units,
                     Definition definition, const std::vector<std::int64_t> &cap);

} // namespace pio::beff_io
