#pragma once
/// The reporters of a run, from where its outputs go and the config.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "report/progress_reporter.hpp"
#include "report/reporter.hpp"
#include "report/unit_listener.hpp"

namespace pio::harness {

/// Whether a run prints live progress lines (docs/results.md, "Live progress").
enum class ProgressMode {
  Auto, ///< when `err` is std::cerr (a terminal or not): a line per block start, one per 10 s
  On,   ///< always, at most one line a second and a final line per block (--progress)
  Off,  ///< never (--quiet)
};

/// Where the default reporters write: the run's streams and files, decided before they open.
struct ReportOutputs {
  std::ostream *out = nullptr; ///< tables (rank 0)
  std::ostream *err = nullptr; ///< errors, warnings and live progress
  std::string results_path;    ///< the JSON results document
  std::string csv_path;        ///< CSV results ("" = none)
  bool overwrite = false;      ///< an existing results file may be replaced
  ProgressMode progress = ProgressMode::Auto;
};

/// Whether the run prints live progress (Auto: only on the process's own standard error, not on
/// a caller's stream).
bool progress_wanted(ProgressMode mode, const std::ostream *err);

/// The default reporters, and which of them listens to every work unit (live progress).
struct DefaultReporters {
  std::vector<std::unique_ptr<Reporter>> reporters; ///< in the order they are told
  UnitListener *listener = nullptr;                 ///< the progress reporter, when there is one
  ProgressReporter *progress = nullptr;             ///< the same, to be told the run's plan
};

/// Console table, IMB tables, error log, JSON results document, the CSV file when there is one,
/// and live progress on the error stream when progress_wanted. Throws pio::Error if an output
/// file may not be written.
DefaultReporters make_reporters(const ReportOutputs &outputs, const GlobalConfig &g);

} // namespace pio::harness
