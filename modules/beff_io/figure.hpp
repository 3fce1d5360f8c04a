#pragma once
/// The b_eff_io figure (b_eff_io paper §5.1, §5.3, §6), MPI-free: computed from the block's
/// typed results and what the module itself knows about each test (its plan), never from
/// parameters or phase labels read back.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "beff_math.hpp"
#include "pio/results.hpp"

namespace pio::beff_io {

/// What one phase of a test is.
struct FigurePhase {
  int pattern = 0;   ///< Table 2 number
  std::string chunk; ///< chunk label of the pattern
  bool sync = false; ///< the MPI_File_sync ending a write or rewrite loop
};

/// What one test is: TestResult::index selects it, phases match by position.
struct FigureTest {
  int partition = 0;             ///< processes
  int type = 0;                  ///< pattern type
  Method method = Method::Write; ///< access method
  std::vector<FigurePhase> phases;
};

/// What the module knows about the run as a whole.
struct FigureFacts {
  double scheduled_time_s = 0;                  ///< T
  Definition definition = Definition::Original; ///< which definition the figure follows
  int partitions = 1;                           ///< partitions of the run (original: T is shared)
  bool read_rewrite_count = true;               ///< rewrite and read repeat the write's calls
  bool rewrite_all = false;                     ///< every type rewritten (else type 0 only)
  bool all_patterns = true;                     ///< every pattern of Table 2 selected
  bool mpart_by_definition = true;              ///< M_PART not set by hand (all partitions)
  bool fixed_units = false;                     ///< FixedUnits replaced the schedule
  std::string positioning_type1;                ///< how type 1 positioned ("" when not run)
  std::map<int, double> wall_time_s;            ///< partition -> first test start to last test end
  std::vector<std::string> capped;          ///< write loops MaxFileSize ended, "write 1 MPART (P4)"
  std::map<int, std::int64_t> segment_size; ///< partition -> LSEG of types 3 and 4
  /// (test index, phase) -> MPI-IO calls per work unit where a loop's calls are one unit
  /// (Definition original's count-driven loops); 1 elsewhere.
  std::map<std::pair<int, int>, std::int64_t> calls_per_unit;
};

/// Seconds of one phase as the definition times it: Original, the phase's wall time (b_eff_io
/// 2.1 reads the clock around the whole loop with its barriers and sync); Paper, the sum of its
/// timed units.
double phase_time(Definition d, const PhaseResult &phase);

/// The figure: values (b_eff_io first; then per partition its b_eff_io, per access method,
/// completeness, scheduled / actual time, deviation, within_10_percent, measured times), tables
/// ("types": bandwidth per partition, method and type from open to close; "chunks": the paper's
/// table per method and chunk size with one column per type; "patterns": per pattern and
/// method, with the rounds a rewrite or read made through the write's units) and notes (the
/// definition, the rule check with its reasons, type 1 positioning, MaxFileSize caps).
Figure make_figure(const std::vector<FigureTest> &tests, const FigureFacts &facts,
                   const ModuleResult &results);

} // namespace pio::beff_io
