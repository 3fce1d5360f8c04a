#pragma once
/// The b_eff_io plan, MPI-free: from the directives and the environment, the partitions, the
/// tests in the paper's order (per partition every pattern type's write, then every rewrite,
/// then every read), each test's patterns (Table 2 rows with l, L, U) and phases, and each
/// loop's scheduled time T/3 * U/ΣU (b_eff_io paper §5.1, Table 2, §5.4).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "beff_math.hpp"
#include "hints.hpp"
#include "pio/spec.hpp"

namespace pio::beff_io {

/// What the plan is made from: the module's directives and what the environment probe found.
struct PlanInput {
  int processes = 1;                     ///< processes of the run
  double scheduled_time = 900;           ///< T (ScheduledTime)
  std::vector<std::int64_t> partitions;  ///< Partitions as written (empty: all processes)
  std::set<int> types = {0, 1, 2, 3, 4}; ///< PatternTypes
  std::set<int> numbers;                 ///< Patterns (empty: all of the selected types)
  std::int64_t node_memory = 0;          ///< memory of one node
  std::string memory_source;             ///< where node_memory came from
  /// Processes of each partition on its fullest node (partition -> count).
  std::map<int, int> processes_per_node;
  std::optional<std::int64_t> mpart;            ///< MPart override
  Definition definition = Definition::Original; ///< Definition
  bool rewrite_all = false;           ///< RewriteTypes all (else only type 0 is rewritten)
  std::int64_t fixed_units = 0;       ///< FixedUnits (0: time-driven)
  bool repeat_exactly = true;         ///< ReadRewrite count
  bool delete_on_close = false;       ///< the read opens with MPI_MODE_DELETE_ON_CLOSE
  std::int64_t max_file_size = 0;     ///< MaxFileSize (0: no cap)
  std::string positioning;            ///< type 1 positioning, for the results
  std::map<int, Hints> type_hints;    ///< TypeHints
  std::vector<ChunkHint> chunk_hints; ///< ChunkHints
};

/// One phase of a test: a pattern's loop, or the MPI_File_sync that ends a write or rewrite loop.
struct PhaseDesc {
  size_t pattern = 0; ///< index into TestPlan::patterns
  bool sync = false;  ///< the closing MPI_File_sync
  double nominal = 0; ///< scheduled time T/3*U/ΣU (0 for a sync and U = 0)
};

/// One test: one access method of one pattern type on one partition.
struct TestPlan {
  int procs = 1;                            ///< the partition: the first procs ranks
  int type = 0;                             ///< pattern type 0-4
  Method method = Method::Write;            ///< access method
  std::int64_t mpart = 0;                   ///< M_PART of the partition
  bool mpart_by_definition = true;          ///< M_PART = max(2 MB, memory per process / 128)
  int sum_u = 0;                            ///< ΣU over the selected patterns of all types
  int schedule_units = 0;                   ///< the time units T is divided into
  double partition_time = 0;                ///< this partition's share of T
  std::vector<Pattern> patterns;            ///< the selected patterns of this type, in file order
  std::vector<PhaseDesc> phases;            ///< in the order they run
  std::map<std::string, Hints> chunk_hints; ///< chunk label -> hints set before its patterns
  /// Per pattern: most units its write may run so that all files stay within MaxFileSize
  /// (0: no cap).
  std::vector<std::int64_t> cap_units;
  TestSpec spec; ///< what init_module returns for the test
};

/// How MaxFileSize is shared out on one partition: every file of every pattern type exists from
/// its write to its read, so all of them together must fit.
struct FileCap {
  std::int64_t minimum = 0; ///< bytes one unit of every selected pattern needs (with reserves)
  std::map<int, std::int64_t> max_units; ///< Table 2 number -> most units (patterns with U > 0)
};
/// Bytes all `procs` ranks write with one unit of p (type 0: L each, else l; the fill pattern
/// counts 0, its bytes are the segment's rounding, reserved by file_cap).
std::int64_t unit_bytes_all(const Pattern &p, int procs);
/// The default MaxFileSize for a directory with `free_bytes` free: 90 % of it on a disk (b_eff_io
/// 2.1 has no cap; this only keeps the disk from filling), 40 % where files live in memory.
std::int64_t default_max_file_size(std::int64_t free_bytes, bool in_memory);
/// That default in words, for the directive's help and the errors that name it.
inline constexpr const char *kMaxFileSizeDefault =
    "default 90% of the free space of the TestFile's directory at the start, 40% on tmpfs";

/// Shares `max_file_size` among the selected patterns: the U = 0 patterns' single unit, 1 MB per
/// rank of rounding for each type 3/4 segment and one unit of every U > 0 pattern are reserved,
/// the rest goes to the U > 0 patterns by U. Throws pio::Error (before any I/O) if
/// max_file_size is below the reserve.
FileCap file_cap(const std::vector<Pattern> &selected, int procs, std::int64_t max_file_size);

/// The most bytes the write test `m` can leave in its file(s), all ranks together: every
/// pattern at its MaxFileSize share (file_cap), plus 1 MB per rank of segment rounding for
/// types 3 and 4; 0 when there is no cap (nothing bounds it).
std::int64_t most_bytes_written(const TestPlan &m);

/// The time units of one partition's schedule: ΣU over the access methods that get a share of
/// T. Original (b_eff_io 2.1): every selected pattern's U for the write and the read, and those
/// of the rewritten types for the rewrite (150 for the full table, 192 with RewriteTypes all);
/// Paper: ΣU once (each method gets T/3).
int schedule_units(Definition d, const std::vector<Pattern> &selected,
                   const std::set<int> &rewritten_types);

/// The whole plan.
struct Plan {
  std::vector<int> partitions;                  ///< in the order they run
  Definition definition = Definition::Original; ///< which definition the plan follows
  std::set<int> rewritten_types;                ///< pattern types that have a rewrite test
  bool catch_up = false;       ///< time-driven loops take the partition's lag off their budget
  bool all_patterns = true;    ///< every pattern of Table 2 is selected
  std::vector<TestPlan> tests; ///< in the order they run; index = TestResult::index
};

/// Partitions (§5.1: "a set of partitions"): the listed process counts in order, without
/// repeats; none listed: all processes. Throws pio::Error for a count above `processes`.
std::vector<int> partitions_of(int processes, const std::vector<std::int64_t> &listed);

/// Makes the plan; throws pio::Error if a partition exceeds the processes or nothing is selected.
Plan make_plan(const PlanInput &in);

} // namespace pio::beff_io
