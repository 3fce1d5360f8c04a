#pragma once
/// The harness as a library: main() and the tests call run().

#include <mpi.h>

#include <iostream>
#include <string>
#include <vector>

#include "pio/results.hpp"
#include "report/default_reporters.hpp"
#include "report/reporter.hpp"

namespace pio::harness {

/// What a run needs besides the config file.
struct RunOptions {
  std::string config_path; ///< the site config (required)
  std::vector<std::string>
      module_dirs;          ///< searched first, then ModulePath, PIO_MODULE_PATH, install dir
  std::string results_path; ///< overrides ResultsFile ("" = config or default)
  std::string csv_path;     ///< CSV results (-o csv=FILE; overrides CsvFile; "" = none)
  bool overwrite = false;   ///< allow TestFile to exist already (--overwrite)
  bool keep_files = false;  ///< keep test files after the run (--keep-files)
  bool clean_stale = false; ///< remove leftovers of pio-bench runs on other hosts too
  bool check_only = false;  ///< stop after the checks, before any I/O (--check)
  /// pio-tune's values for the config's Tune lines, each NAME=VALUE (--tune; docs/tuning.md).
  std::vector<std::string> tune_values;
  /// Where to write the config's search space as JSON after the checks (--tune-space; "" none).
  std::string tune_space_path;
  /// Live progress lines on `err`, rank 0 (--progress: On, --quiet: Off;
  /// report/default_reporters.hpp).
  ProgressMode progress = ProgressMode::Auto;
  std::vector<std::string> command_line; ///< recorded in the results
  /// MPI_Wtime() when MPI_Init returned (set by main; < 0: run()'s start), the origin of the
  /// results' startup_s.
  double init_wtime = -1;
  std::ostream *out = &std::cout; ///< tables and progress (rank 0)
  std::ostream *err = &std::cerr; ///< errors and warnings
  /// The caller's own reporters (not owned), told every event on rank 0 after the default ones
  /// (google/benchmark's RunSpecifiedBenchmarks(display, file) is the model).
  std::vector<Reporter *> reporters;
  /// The console, IMB tables, error log, hint warnings, JSON and CSV files and live progress;
  /// false leaves only the caller's reporters (and writes no results file).
  bool default_reporters = true;
};

/// The exit code and the typed results (complete on rank 0; ranks > 0 get the exit code only).
struct RunOutcome {
  int exit_code = 0; ///< 0 ok, 1 a test or module failed, 2 config or usage error
  RunResult run;     ///< the typed results every reporter rendered (rank 0)
};

/// Parses the config, loads the modules, runs every module block, reports. Collective on comm.
RunOutcome run(const RunOptions &options, MPI_Comm comm = MPI_COMM_WORLD);

/// Prints every module found in the search path, its tests' directives and help (--list-modules).
int list_modules(const RunOptions &options, std::ostream &out);

/// Prints every I/O backend found in the search path, its capabilities and options
/// (--list-interfaces). Returns 1 when none is found.
int list_interfaces(const RunOptions &options, std::ostream &out);

} // namespace pio::harness
