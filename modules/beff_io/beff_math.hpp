#pragma once
/// The b_eff_io definitions that need no MPI: Table 2, M_PART and the averaging that turns
/// bandwidths into b_eff_io (b_eff_io paper §5.1, Table 2; Euro-Par b_eff_io paper §4).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pio::beff_io {

inline constexpr std::int64_t kKiB = 1024;             ///< 1 kB as b_eff_io uses it
inline constexpr std::int64_t kMiB = 1024 * kKiB;      ///< 1 MB as b_eff_io uses it
inline constexpr int kPatternTypes = 5;                ///< pattern types 0-4 (§5.1)
inline constexpr int kSumU = 64;                       ///< ΣU of Table 2
inline constexpr double kRuleMinimumT = 15 * 60.0;     ///< T >= 15 min for a system value (§5.1)
inline constexpr double kOriginalMinimumT = 30 * 60.0; ///< b_eff_io 2.1: T_n >= 30 min (T_CRIT)
inline constexpr std::int64_t kSegmentAlign = kMiB;    ///< segment size granularity (§5.4)

/// Which definition of b_eff_io the module follows. Original: b_eff_io 2.1 (R. Rabenseifner,
/// HLRS, b_eff_io.c "Revision 2.1"), the program behind the published numbers; Paper: the
/// reading of the b_eff_io paper §5.1 this module had before (docs/reference/beff_io.md,
/// "Definitions").
enum class Definition { Original = 0, Paper = 1 };
/// "original" or "paper".
const char *definition_name(Definition d);

inline constexpr double kMB = 1e6;                ///< MB of b_eff_io 2.1's results (10^6 B)
inline constexpr double kMiB_d = 1024.0 * 1024.0; ///< MiB of the paper definition's results

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

/// Weight of a pattern type in the b_eff_io of an access method: type 0 counts double (§5.1).
double type_weight(int type);
/// b_eff_io of one access method: the weighted average of the bandwidths of the pattern types
/// present (type -> MiB/s), type 0 weighted double (§5.1). 0 when empty.
double method_beff(const std::map<int, double> &bandwidth_by_type);
/// b_eff_io of one partition by the paper definition: 25 % write + 25 % rewrite + 50 % read
/// (§5.1).
double partition_beff(double write, double rewrite, double read);
/// The write side of b_eff_io 2.1: the five write types unweighted plus the type 0 rewrite,
/// averaged, (w0 + w1 + w2 + w3 + w4 + rw0) / 6 over what is present. 0 when empty.
double original_write_rewrite(const std::map<int, double> &write_by_type,
                              const double *rewrite_type0);
/// b_eff_io of one partition by b_eff_io 2.1: the geometric mean sqrt(write_rewrite * read),
/// read being method_beff of the reads (type 0 weighted double).
double original_partition_beff(double write_rewrite, double read);

/// One phase label: "<method> <pattern> <chunk>" for I/O, "<method> <pattern> sync" for the
/// MPI_File_sync that ends a write loop. For people and tools reading the results only: the
/// module keeps what each phase is in its plan and never reads a label back.
std::string phase_label(Method m, const Pattern &p, bool sync);

} // namespace pio::beff_io
