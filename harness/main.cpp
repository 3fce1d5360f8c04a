// pio-harness: mpiexec -n N pio-harness -c site.conf
#include <mpi.h>

#include <CLI/CLI.hpp>

#include "config/config.hpp"
#include "config/directive_docs.hpp"
#include "guard/guardian.hpp"
#include "guard/process_guard.hpp"
#include "pio/version.hpp"
#include "run/run.hpp"

namespace {

/// What the command line asks for besides the run's options.
struct Requests {
  bool list_modules = false, list_interfaces = false, list_directives = false;
  bool quiet = false, progress = false;
  std::vector<std::string> outputs; ///< -o FORMAT=FILE
};

/// pio-harness's options and flags, bound to opt and req.
void add_options(CLI::App &app, pio::harness::RunOptions &opt, Requests &req) {
  app.add_option("-c,--config", opt.config_path,
                 "site config file (apache style, see "
                 "docs/configuration.md)");
  app.add_option("-M,--module-path", opt.module_dirs,
                 "directory to search for modules first (repeatable)");
  app.add_option("-r,--results", opt.results_path, "results JSON file (overrides ResultsFile)");
  app.add_option("-o,--output", req.outputs,
                 "extra output FORMAT=FILE (repeatable): csv=FILE writes one CSV row per "
                 "repetition; json=FILE is the same as --results");
  app.add_flag("--overwrite", opt.overwrite,
               "allow an existing TestFile to be written and an existing results file to be "
               "replaced");
  app.add_flag("--keep-files", opt.keep_files, "keep the test files after the run");
  app.add_flag("--clean-stale", opt.clean_stale,
               "remove test files left by a pio-bench run that died, also when it ran on another "
               "host (leftovers of a run on this host that is gone are always removed)");
  auto *quiet_flag = app.add_flag(
      "--quiet", req.quiet,
      "no live progress lines on standard error (by default rank 0 prints one per block start "
      "and at most one more every 10 s)");
  app.add_flag("--progress", req.progress,
               "more live progress lines on standard error: at most one a second, and a final "
               "line per block")
      ->excludes(quiet_flag);
  app.add_flag("--check", opt.check_only,
               "check the config, the modules and the files, then stop before any I/O");
  app.add_option("--tune", opt.tune_values,
                 "NAME=VALUE: run with this value of the config's Tune NAME (repeatable; what "
                 "pio-tune passes for a trial; docs/tuning.md)");
  app.add_option("--tune-space", opt.tune_space_path,
                 "write the config's search space (its Tune and TuneHook lines, checked) as JSON "
                 "to this file after the checks (for pio-tune; with --check nothing runs)");
  app.add_flag("--list-modules", req.list_modules,
               "list the modules found, their directives and help");
  app.add_flag("--list-interfaces", req.list_interfaces,
               "list the I/O backends found (the Interface words), their capabilities and "
               "options");
  app.add_flag("--list-directives", req.list_directives,
               "print the harness's own directives as a Markdown table (docs/configuration.md)");
  app.set_version_flag("--version", std::string("pio-bench ") + pio::kToolVersion);
}

/// The parsed command line's remaining choices into opt: the progress mode and the -o outputs.
/// Throws pio::Error on an -o that is not FORMAT=FILE.
void finish_options(const Requests &req, pio::harness::RunOptions &opt) {
  opt.progress = req.quiet      ? pio::harness::ProgressMode::Off
                 : req.progress ? pio::harness::ProgressMode::On
                                : pio::harness::ProgressMode::Auto;
  for (const auto &o : req.outputs) {
    const auto eq = o.find('=');
    const std::string format = o.substr(0, eq == std::string::npos ? o.size() : eq);
    const std::string file = eq == std::string::npos ? "" : o.substr(eq + 1);
    if (file.empty() || (format != "csv" && format != "json"))
      throw pio::Error("-o " + o + ": not FORMAT=FILE with FORMAT csv or json",
                       "write e.g. -o csv=results.csv");
    (format == "csv" ? opt.csv_path : opt.results_path) = file;
  }
}

/// What the command line asked for: a listing (rank 0), or the run. Returns the exit code.
int perform(const Requests &req, const pio::harness::RunOptions &opt, int rank) {
  if (req.list_directives) {
    if (rank == 0)
      std::cout << pio::harness::harness_directives_markdown();
    return 0;
  }
  if (req.list_modules)
    return rank == 0 ? pio::harness::list_modules(opt, std::cout) : 0;
  if (req.list_interfaces)
    return rank == 0 ? pio::harness::list_interfaces(opt, std::cout) : 0;
  if (opt.config_path.empty()) {
    if (rank == 0)
      std::cerr << "pio-harness: error: no config file given (fix: pio-harness -c site.conf; "
                   "see --help)\n";
    return 2;
  }
  return pio::harness::run(opt, MPI_COMM_WORLD).exit_code;
}

} // namespace

int main(int argc, char **argv) {
  // Before MPI_Init, while this process has one thread: the guardian that cleans up after this
  // rank if it is killed (guardian.hpp).
  pio::harness::start_guardian();
  MPI_Init(&argc, &argv);
  const double init_wtime = MPI_Wtime();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  pio::harness::install_process_guards();

  pio::harness::RunOptions opt;
  opt.init_wtime = init_wtime;
  Requests req;
  CLI::App app{"pio-bench: parallel I/O benchmark harness (run under mpiexec)", "pio-harness"};
  add_options(app, opt, req);
  int code = 0;
  try {
    app.parse(argc, argv);
    finish_options(req, opt);
    for (int i = 0; i < argc; ++i)
      opt.command_line.emplace_back(argv[i]);
    code = perform(req, opt, rank);
  } catch (const CLI::ParseError &e) {
    code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
    if (code != 0)
      code = 2;
  } catch (const pio::Error &e) {
    if (rank == 0)
      std::cerr << "pio-harness: error: " << e.what() << " (fix: " << e.hint() << ")\n";
    code = 2;
  }
  MPI_Finalize();
  pio::harness::disarm_guardian(); // a normal end: nothing for the guardian to do
  return code;
}
