#pragma once
/// The reporters of a run, from the options and the config.

#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "report/progress_reporter.hpp"
#include "report/reporter.hpp"
#include "report/unit_listener.hpp"
#include "run/run.hpp"

namespace pio::harness {

/// Whether the run prints live progress (options.progress; Auto: only on the process's own
/// standard error, not on a caller's stream).
bool progress_wanted(const RunOptions &options);

/// The default reporters, and which of them listens to every work unit (live progress).
struct DefaultReporters {
  std::vector<std::unique_ptr<Reporter>> reporters; ///< in the order they are told
  UnitListener *listener = nullptr;                 ///< the progress reporter, when there is one
  ProgressReporter *progress = nullptr;             ///< the same, to be told the run's plan
};

/// Console table, IMB tables, error log, JSON results document, the CSV file when asked for
/// (-o csv=FILE or CsvFile), and live progress on the error stream when progress_wanted.
/// Throws pio::Error if an output file may not be written.
DefaultReporters make_reporters(const RunOptions &options, const Config &config,
                                const std::string &results_path, bool overwrite);

} // namespace pio::harness
