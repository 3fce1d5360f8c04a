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
#include "pio/test_spec.hpp"

namespace pio::beff {

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
  std::optional<std::int64_t> mpart;  ///< MPart override
  std::int64_t fixed_units = 0;       ///< FixedUnits (0: time-driven)
  bool repeat_exactly = false;        ///< ReadRewrite count
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
  std::vector<Pattern> patterns;            ///< the selected patterns of this type, in file order
  std::vector<PhaseDesc> phases;            ///< in the order they run
  std::map<std::string, Hints> chunk_hints; ///< chunk label -> hints set before its patterns
  TestSpec spec;                            ///< what init_module returns for the test
};

/// The whole plan.
struct Plan {
  std::vector<int> partitions; ///< in the order they run
  bool all_patterns = true;    ///< every pattern of Table 2 is selected
  std::vector<TestPlan> tests; ///< in the order they run; index = TestResult::index
};

/// Partitions (§5.1: "a set of partitions"): the listed process counts in order, without
/// repeats; none listed: all processes. Throws pio::Error for a count above `processes`.
std::vector<int> partitions_of(int processes, const std::vector<std::int64_t> &listed);

/// Makes the plan; throws pio::Error if a partition exceeds the processes or nothing is selected.
Plan make_plan(const PlanInput &in);

} // namespace pio::beff
