#pragma once
/// The b_eff_io definitions that need no MPI: Table 2, the schedule, the segment size of pattern
/// types 3 and 4, and the averaging that turns measurements into b_eff_io (Koniges,
/// Rabenseifner et al., seeds/000 §5.1, Table 2, §5.4, §6; Rabenseifner & Koniges, seeds/002 §4).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pio::beff {

inline constexpr std::int64_t kKiB = 1024;          ///< 1 kB as b_eff_io uses it
inline constexpr std::int64_t kMiB = 1024 * kKiB;   ///< 1 MB as b_eff_io uses it
inline constexpr int kPatternTypes = 5;             ///< pattern types 0-4 (§5.1)
inline constexpr int kSumU = 64;                    ///< ΣU of Table 2
inline constexpr double kRuleMinimumT = 15 * 60.0;  ///< T >= 15 min for a system value (§5.1)
inline constexpr std::int64_t kSegmentAlign = kMiB; ///< segment size granularity (§5.4)

/// The three access methods, in the order they run (§5.1).
enum class Method { Write = 0, Rewrite = 1, Read = 2 };
/// "write", "rewrite", "read".
const char *method_name(Method m);
/// All three methods in order.
const std::vector<Method> &all_methods();

/// One row of Table 2: a pattern type with a chunk size, memory chunk and time units.
struct Pattern {
  int number = 0;          ///< Table 2 number, 0-42 (25-33 type 3, 34-42 type 4)
  int type = 0;            ///< pattern type 0-4
  std::int64_t l = 0;      ///< contiguous chunk on disk (0 for "fill up segments")
  std::int64_t L = 0;      ///< contiguous chunk in memory per call (== l except type 0)
  int U = 0;               ///< time units (0: one call, only aligns / fills)
  std::string chunk;       ///< chunk label: "1K", "32K+8", "1M", "MPART", "fill", ...
  bool fill = false;       ///< pattern 33/42: fill the rest of the segment in one call
  bool well_formed = true; ///< false for the +8 B chunks
};

/// Table 2 with M_PART = mpart; patterns in file order within each type.
std::vector<Pattern> table2(std::int64_t mpart);
/// M_PART = max(2 MB, memory of one process / 128) (§5.1).
std::int64_t mpart_for(std::int64_t memory_per_process);
/// Scheduled time of one pattern's write loop: T/3 * U/ΣU (§5.1, §5.4).
double pattern_budget(double scheduled_time, int units, int sum_units);
/// Smallest share of its scheduled time a pattern keeps when earlier patterns overran.
inline constexpr double kMinimumBudgetShare = 0.25;
/// The running schedule: a time-driven loop scheduled for `nominal` seconds gets what is left
/// after the partition's earlier patterns overran by `debt` seconds (their closing syncs and
/// last batches), never more than `nominal` and never less than kMinimumBudgetShare of it, so
/// the partition keeps to T.
double catch_up_budget(double nominal, double debt);
/// x rounded up to a multiple of m (m > 0).
std::int64_t round_up(std::int64_t x, std::int64_t m);

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
/// LSEG: sum of l * repetitions over the segment's patterns, rounded up to 1 MB (§5.4); at
/// least 1 MB.
std::int64_t segment_size(const std::vector<std::pair<std::int64_t, std::int64_t>> &l_and_reps);

/// Weight of a pattern type in the b_eff_io of an access method: type 0 counts double (§5.1).
double type_weight(int type);
/// b_eff_io of one access method: the weighted average of the bandwidths of the pattern types
/// present (type -> MiB/s), type 0 weighted double (§5.1). 0 when empty.
double method_beff(const std::map<int, double> &bandwidth_by_type);
/// b_eff_io of one partition: 25 % write + 25 % rewrite + 50 % read (§5.1).
double partition_beff(double write, double rewrite, double read);

/// One phase label: "<method> <pattern> <chunk>" for I/O, "<method> <pattern> sync" for the
/// MPI_File_sync that ends a write loop.
std::string phase_label(Method m, const Pattern &p, bool sync);
/// Parsed phase label.
struct PhaseKey {
  Method method = Method::Write; ///< access method
  int pattern = 0;               ///< Table 2 number
  bool sync = false;             ///< the sync phase ending the pattern's write loop
  std::string chunk;             ///< chunk label ("" for sync)
};
/// Parses a phase_label(); returns false if it is not one.
bool parse_phase_label(const std::string &label, PhaseKey &key);

/// Computes the b_eff_io figure from the module's section of the results document (as the
/// harness writes it: tests[].params, tests[].reps[].{open_time_s, close_time_s, phases[]}).
/// `notes` carries what the module observed itself (wall times per partition, capped patterns,
/// fallbacks); may be null. Returns the figure: per partition, per access method, per pattern
/// type and per pattern (the table the paper plots, §5.3), the system value, the rule check
/// and a "text" rendering for the console.
nlohmann::json summarize_results(const nlohmann::json &module_results, const nlohmann::json &notes);

} // namespace pio::beff
