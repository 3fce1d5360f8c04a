#include "run/default_reporters.hpp"

#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/error_log.hpp"
#include "report/hint_warning.hpp"
#include "report/imb_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/progress_reporter.hpp"

namespace pio::harness {

bool progress_wanted(const RunOptions &options) {
  switch (options.progress) {
  case ProgressMode::On:
    return true;
  case ProgressMode::Off:
    return false;
  case ProgressMode::Auto:
    break;
  }
  // On the process's own standard error, a terminal or not (under mpiexec, Hydra hands the
  // ranks pipes and that is how everybody runs it); never into a caller's stream.
  return options.err == &std::cerr;
}

DefaultReporters make_reporters(const RunOptions &options, const Config &config,
                                const std::string &results_path, bool overwrite) {
  const GlobalConfig &g = config.global;
  DefaultReporters out;
  auto &r = out.reporters;
  // The console first, then IMB's tables on the same stream (after each block's heading).
  r.push_back(std::make_unique<ConsoleReporter>(
      *options.out, TableOptions{g.show_averages, g.report_open_time, g.report_close_time,
                                 g.report_header_offset, g.show_all_tests}));
  r.push_back(std::make_unique<ImbReporter>(*options.out));
  r.push_back(std::make_unique<ErrorLogReporter>(*options.err));
  r.push_back(std::make_unique<HintWarningReporter>(*options.err));
  r.push_back(std::make_unique<JsonReporter>(results_path, overwrite, *options.err));
  const std::string csv = !options.csv_path.empty() ? options.csv_path : g.csv_file;
  if (!csv.empty())
    r.push_back(std::make_unique<CsvReporter>(csv, overwrite));
  if (progress_wanted(options)) {
    // By default a low rate (a line per block start, at most one more every 10 s);
    // --progress: at most one a second and every block's final line.
    const bool verbose = options.progress == ProgressMode::On;
    auto progress = std::make_unique<ProgressReporter>(*options.err, ProgressClock{},
                                                       verbose ? 1.0 : 10.0, verbose);
    out.listener = progress.get();
    out.progress = progress.get();
    r.push_back(std::move(progress));
  }
  return out;
}

} // namespace pio::harness
