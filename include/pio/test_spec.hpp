#pragma once
/// One access pattern test (thesis §3.3.2: a combination of buffer size, header offset, number
/// of work units, hints, access mode and file layout) as a module declares it in init_module.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pio {

/// Which file the harness opens for a test.
enum class FileUse {
  None,           ///< no file (communication kernels): file handle is MPI_FILE_NULL
  Shared,         ///< one file, opened collectively by all participating ranks
  FilePerProcess, ///< one file per rank ("<TestFile>.<rank>"), opened on MPI_COMM_SELF
};

/// A run of work units timed as one series. Most tests have one phase; a test with several
/// phases (b_eff_io's patterns within one open/close) reports each phase and their sum.
struct Phase {
  std::string label; ///< e.g. "pattern 3"; empty for a single-phase test
  std::int64_t work_units =
      1; ///< count-driven: number of work units (ignored if time_budget_s > 0)
  /// Time-driven: run units until this many seconds of the phase have passed (wall time). Only
  /// the root's value decides; it is read after each batch, so a module may still adjust it in
  /// before_work_unit of the phase's first unit (b_eff_io's running schedule). Whether the
  /// phase is time-driven (> 0) is fixed when it starts.
  double time_budget_s = 0;
  std::int64_t max_work_units = 0; ///< time-driven: upper bound on units (0 = none)
};

/// One test of a module. Fields the module leaves at their defaults mean "harness default".
struct TestSpec {
  /// Short human label, e.g. "64K".
  std::string label;
  /// Bytes per rank per work unit as reported (the "transfer size").
  std::int64_t buffer_size = 0;
  /// Bytes skipped at the start of the file (ReportHeaderOffset).
  std::int64_t header_offset = 0;
  /// The test's phases; at least one.
  std::vector<Phase> phases = {Phase{}};
  /// Which file the harness opens.
  FileUse file = FileUse::Shared;
  /// Appended to TestFile (e.g. ".type0"); tests differing in it use different files.
  std::string file_suffix;
  /// Keep the file for later tests of the module (write it, then rewrite, then read it); the
  /// harness deletes it after cleanup_module if it created it.
  bool keep_file = false;
  /// Open mode (the harness adds nothing else).
  int amode = MPI_MODE_RDWR | MPI_MODE_CREATE;
  /// MPI-IO hints this test asks for (the block's Hint lines override them).
  std::map<std::string, std::string> hints;
  /// Ranks taking part (the first `procs` ranks); 0 = all.
  int procs = 0;
  /// Every parameter that defines the test, for the results.
  std::map<std::string, std::string> params;
};

} // namespace pio
