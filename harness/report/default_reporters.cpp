// The reporters a run opens by default (default_reporters.hpp).
#include "report/default_reporters.hpp"

#include <iostream>

#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/error_log.hpp"
#include "report/hint_warning.hpp"
#include "report/imb_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/progress_reporter.hpp"

namespace pio::harness {

bool progress_wanted(ProgressMode mode, const std::ostream *err) {
  switch (mode) {
  case ProgressMode::On:
    return true;
  case ProgressMode::Off:
    return false;
  case ProgressMode::Auto:
    break;
  }
  // On the process's own standard error, a terminal or not (under mpiexec, Hydra hands the
  // ranks pipes and that is how everybody runs it); never into a caller's stream.
  return err == &std::cerr;
}

DefaultReporters make_reporters(const ReportOutputs &outputs, const GlobalConfig &g) {
  DefaultReporters out;
  auto &r = out.reporters;
  // The console first, then IMB's tables on the same stream (after each block's heading).
  r.push_back(std::make_unique<ConsoleReporter>(
      *outputs.out, TableOptions{g.show_averages, g.report_open_time, g.report_close_time,
                                 g.report_header_offset, g.show_all_tests}));
  r.push_back(std::make_unique<ImbReporter>(*outputs.out));
  r.push_back(std::make_unique<ErrorLogReporter>(*outputs.err));
  r.push_back(std::make_unique<HintWarningReporter>(*outputs.err));
  r.push_back(
      std::make_unique<JsonReporter>(outputs.results_path, outputs.overwrite, *outputs.err));
  if (!outputs.csv_path.empty())
    r.push_back(std::make_unique<CsvReporter>(outputs.csv_path, outputs.overwrite));
  if (progress_wanted(outputs.progress, outputs.err)) {
    // By default a low rate (a line per block start, at most one more every 10 s);
    // --progress: at most one a second and every block's final line.
    const bool verbose = outputs.progress == ProgressMode::On;
    auto progress = std::make_unique<ProgressReporter>(*outputs.err, ProgressClock{},
                                                       verbose ? 1.0 : 10.0, verbose);
    out.listener = progress.get();
    out.progress = progress.get();
    r.push_back(std::move(progress));
  }
  return out;
}

} // namespace pio::harness
