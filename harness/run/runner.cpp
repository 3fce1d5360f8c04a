// The harness: config -> plan -> load -> for each module block the seven-method lifecycle under
// one timing method -> typed results -> reporters (pio-bench thesis §3.2-§3.3). run() reads as
// its steps; each step is below.
#include <algorithm>
#include <map>
#include <optional>

#include "config/config.hpp"
#include "config/module_reps.hpp"
#include "config/process_counts.hpp"
#include "guard/process_guard.hpp"
#include "guard/watchdog.hpp"
#include "load/catalog.hpp"
#include "plan/file_check.hpp"
#include "plan/module_plan.hpp"
#include "plan/rounds.hpp"
#include "plan/suite_time.hpp"
#include "plan/tune_space.hpp"
#include "report/default_reporters.hpp"
#include "report/progress_estimate.hpp"
#include "report/provenance.hpp"
#include "report/results_file.hpp"
#include "report/tune_space_json.hpp"
#include "run/consensus.hpp"
#include "run/preflight.hpp"
#include "run/run.hpp"
#include "run/run_block.hpp"
#include "run/run_state.hpp"
#include "run/stage_modules.hpp"
#include "run/startup_broadcast.hpp"

namespace pio::harness {

namespace {

/// What is decided before any I/O. Plans point into config and catalog: it is filled in place.
struct Prepared {
  StagedModules staged; ///< declared first: the copies outlive the catalog that opened them
  Config config;
  Catalog catalog;
  std::vector<ModulePlan> plans;
  TuneSpace space;                          ///< the config's Tune lines (tune_space.hpp)
  std::map<std::string, std::string> tuned; ///< the values --tune set
  std::string results_path;
  std::string csv_path; ///< -o csv=, else CsvFile ("" = none)
  bool overwrite = false;
  bool keep = false;
};

/// Prints an error that stops the run before any I/O (rank 0) and returns exit code 2.
RunOutcome stop_before_io(const RunOptions &options, const BlockRanks &run, const Failure &f) {
  if (run.rank == 0)
    *options.err << "pio-harness: error: " << f.message << "\n";
  return RunOutcome{2, {}};
}

/// Says whether this run searched nothing (Tune lines ignored) or ran pio-tune's values.
void note_tuning(Config &config, const TuneSpace &space,
                 const std::map<std::string, std::string> &tuned) {
  if (space.params.empty())
    return;
  if (tuned.empty()) {
    config.notes.push_back("the config declares " + std::to_string(space.params.size()) +
                           " Tune setting" + (space.params.size() == 1 ? "" : "s") + " (" +
                           tune_names(space) +
                           "): this run uses the config's own values (pio-tune searches them)");
    return;
  }
  std::string text;
  for (const auto &[name, value] : tuned)
    text += (text.empty() ? "" : ", ") + name + "=" + value;
  config.notes.push_back("tuned (--tune): " + text);
}

/// The config read and expanded for the run's size, the module objects found, every block
/// resolved and its directives checked; the outputs decided. Agreed on every rank. Only rank 0
/// reads the config files and the manifests; the other ranks plan from what it broadcasts
/// (startup_broadcast.hpp) and open only the objects the plan names (or their node-local copies:
/// StageModules).
std::optional<Failure> read_and_plan(const RunOptions &options, const BlockRanks &run,
                                     Prepared &p) {
  StartupInputs inputs;
  std::string err;
  if (run.rank == 0) {
    err = capture("config", [&] {
      p.config = parse_config(options.config_path);
      p.catalog = scan_modules(module_search_path(options.module_dirs, p.config));
    });
    inputs.ok = err.empty();
    if (inputs.ok) {
      inputs.sources = p.config.sources;
      inputs.catalog.listed = p.catalog.listed;
      inputs.catalog.unlisted = p.catalog.unlisted;
      inputs.catalog.problems = p.catalog.problems;
      inputs.catalog.duplicates = p.catalog.duplicates;
      inputs.catalog.backend_duplicates = p.catalog.backend_duplicates;
      inputs.catalog.notes = p.catalog.notes;
    }
  }
  broadcast_startup(run.comm, inputs);
  if (inputs.ok) {
    err = capture("config", [&] {
      if (run.rank != 0) {
        p.config = parse_config(options.config_path, inputs.sources);
        p.catalog = std::move(inputs.catalog);
      }
      expand_processes(p.config, run.size);
    });
  }
  if (auto f = agree(run.comm, err))
    return f;
  {
    err = capture("config", [&] {
      if (options.check_only) // no I/O: the directory is checked, nothing is copied
        StagedModules::check(run.comm, p.config);
      else
        p.staged.stage(run.comm, p.config, p.catalog); // collective: every rank is here
      p.plans = plan_modules(p.config, p.catalog);
      if (p.config.modules.empty())
        throw Error(p.config.path + " has no <ap_module> block",
                    "add at least one module block; see docs/configuration.md");
      p.space = tune_space(p.config, p.plans);
      if (!options.tune_values.empty()) { // a trial of pio-tune: its values, planned again
        p.tuned = apply_tune_values(p.config, p.space, options.tune_values,
                                    [&](const std::string &interface) {
                                      const io::BackendInfo *b = p.catalog.find_backend(interface);
                                      return !b || b->capabilities.has(io::Capability::Hints);
                                    });
        p.plans = plan_modules(p.config, p.catalog);
      }
      check_rounds(p.config, p.plans);
      note_tuning(p.config, p.space, p.tuned);
    });
  }
  if (auto f = agree(run.comm, err))
    return f;
  const GlobalConfig &g = p.config.global;
  p.overwrite = options.overwrite || g.overwrite;
  p.keep = options.keep_files || g.keep_files;
  p.results_path = !options.results_path.empty() ? options.results_path
                   : !g.results_file.empty()     ? g.results_file
                                                 : "pio-results.json";
  p.csv_path = !options.csv_path.empty() ? options.csv_path : g.csv_file;
  return std::nullopt;
}

/// The loader's warnings and the config's notes (rank 0).
void print_notes(const RunOptions &options, const BlockRanks &run, const Prepared &p) {
  if (run.rank != 0)
    return;
  for (const auto &w : module_warnings(p.catalog))
    *options.err << "pio-harness: warning: " << w << "\n";
  for (const auto &n : p.config.notes)
    *options.err << "pio-harness: note: " << n << "\n";
}

/// Refuses an existing TestFile up front, before touching anything, and opens the reporters
/// (rank 0): the default ones, which refuse an output file that is not ours, then the caller's.
std::optional<Failure> open_outputs(RunState &rs, const Prepared &p) {
  std::string err;
  const RunOptions &o = *rs.options;
  if (rs.run.rank == 0) {
    err = capture("config", [&] {
      // --check does no I/O: a leftover of a dead run is named, never removed.
      OwnedFiles probe(p.overwrite, true, o.clean_stale, o.check_only);
      check_test_files(
          p.config,
          OutputFiles{p.results_path, p.csv_path, !o.results_path.empty(), !o.csv_path.empty()},
          probe, o.err);
      if (o.default_reporters) {
        DefaultReporters d = make_reporters(
            ReportOutputs{o.out, o.err, p.results_path, p.csv_path, p.overwrite, o.progress},
            p.config.global);
        rs.owned_reporters = std::move(d.reporters);
        rs.listener = d.listener;
        rs.progress = d.progress;
      }
      for (auto &r : rs.owned_reporters)
        rs.reporters.push_back(r.get());
      for (Reporter *r : o.reporters)
        rs.reporters.push_back(r);
    });
  }
  return agree(rs.run.comm, err);
}

/// What the live progress's estimate needs of each block (progress_estimate.hpp): its module and
/// shared object, repetitions, settle time and the time budgets its tests declared.
std::vector<PlannedBlock> progress_plan(const std::vector<ModulePlan> &plans,
                                        const std::vector<std::vector<TestSpec>> &declared) {
  std::vector<PlannedBlock> out;
  for (size_t i = 0; i < plans.size(); ++i) {
    PlannedBlock b;
    b.module = plans[i].info->name;
    b.family = plans[i].library->path;
    b.reps = planned_reps(plans[i].block->reps, plans[i].block->reps_auto);
    b.settle_s = plans[i].block->settle_time;
    b.budget_s = plans[i].time_budget_s;
    for (const TestSpec &t : i < declared.size() ? declared[i] : std::vector<TestSpec>{}) {
      PlannedTest pt;
      // A budget bounds the time only when no unit cap can end the phase first; else it is an
      // upper bound only (--check's planned time).
      for (const Phase &ph : t.phases) {
        pt.budgets.push_back(ph.max_work_units > 0 ? 0 : ph.time_budget_s);
        pt.capped.push_back(ph.max_work_units > 0 ? ph.time_budget_s : 0);
      }
      b.tests.push_back(std::move(pt));
    }
    out.push_back(std::move(b));
  }
  return out;
}

/// --check: the config is valid; nothing runs.
/// With SuiteTime, the planned share of each time-driven block first; then the run's planned
/// time as far as the blocks declare it.
RunOutcome report_valid(const RunOptions &options, const BlockRanks &run, const Prepared &p,
                        const std::vector<std::vector<TestSpec>> &declared) {
  const Config &config = p.config;
  if (run.rank == 0) {
    for (const auto &line : suite_time_lines(config, p.plans))
      *options.out << "pio-harness: " << line << "\n";
    *options.out << "pio-harness: planned time: "
                 << planned_time_text(progress_plan(p.plans, declared)) << "\n";
    *options.out << "pio-harness: " << config.path << ": the config is valid ("
                 << config.modules.size() << " module block"
                 << (config.modules.size() == 1 ? "" : "s")
                 << ", each checked by its module); nothing was run (--check)\n";
  }
  return RunOutcome{0, {}};
}

/// The run's record (provenance, config, start-up time since `since`) and the reporters'
/// run_started.
void start_run(RunState &rs, const Prepared &p, double since) {
  std::map<std::string, std::string> backend_libraries; // of the backends the blocks use
  for (const ModulePlan &plan : p.plans)
    if (plan.backend->library_versions)
      for (const auto &[name, version] : plan.backend->library_versions())
        backend_libraries[name] = version;
  fill_provenance(rs.run.comm, rs.options->command_line, p.config.global.test_file,
                  backend_libraries, rs.result, &rs.node);
  if (rs.node.leader)
    rs.run_start = sample_node();
  const double mine = MPI_Wtime() - since;
  MPI_Reduce(&mine, &rs.result.startup_s, 1, MPI_DOUBLE, MPI_MAX, 0, rs.run.comm);
  if (rs.run.rank != 0)
    return;
  rs.result.config_path = p.config.path;
  rs.result.config_text = p.config.text;
  fill_config_files(p.config.sources, rs.result);
  rs.result.results_path = p.results_path;
  rs.result.suite_time_s = p.config.global.suite_time;
  rs.result.tuned = p.tuned;
  rs.report([&](Reporter &r) { r.run_started(rs.result); });
}

/// Every block in the schedule's order (Rounds); a failed block does not stop the others, a
/// module's DirectiveError does (what was measured is kept). Returns false after such a config
/// error.
bool run_blocks(RunState &rs, const std::vector<ModulePlan> &plans,
                const std::vector<ScheduledBlock> &schedule) {
  for (size_t k = 0; k < schedule.size(); ++k) {
    if (rs.run.rank == 0 && rs.result.rounds > 1)
      rs.result.block_rounds.push_back({schedule[k].round, schedule[k].index}); // before its record
    if (!run_block(rs, plans[static_cast<size_t>(schedule[k].index)], static_cast<int>(k)))
      return false; // the block's error is on the console already
  }
  return true;
}

/// The pages each node swapped during the run, into its host record (collective; rank 0).
void record_run_swapping(RunState &rs) {
  std::int64_t mine = -1;
  if (rs.node.leader) {
    const NodeSample now = sample_node();
    if (now.swapped_pages >= 0 && rs.run_start.swapped_pages >= 0)
      mine = now.swapped_pages - rs.run_start.swapped_pages;
  }
  std::vector<std::int64_t> all(static_cast<size_t>(rs.run.rank == 0 ? rs.run.size : 0));
  MPI_Gather(&mine, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, 0, rs.run.comm);
  if (rs.run.rank == 0)
    for (auto &h : rs.result.hosts)
      if (!h.ranks.empty() && h.ranks.front() < rs.run.size)
        h.conditions.swapped_pages = all[static_cast<size_t>(h.ranks.front())];
}

/// The live progress's plan in the schedule's order.
std::vector<PlannedBlock> scheduled(const std::vector<PlannedBlock> &planned,
                                    const std::vector<ScheduledBlock> &schedule) {
  std::vector<PlannedBlock> out;
  for (const auto &s : schedule)
    out.push_back(planned.at(static_cast<size_t>(s.index)));
  return out;
}

/// The exit code, the reporters' run_finished and the typed run (rank 0); every rank returns
/// the root's exit code.
RunOutcome finish_run(RunState &rs, bool config_error) {
  record_run_swapping(rs);
  RunOutcome outcome;
  outcome.exit_code = config_error ? 2 : rs.any_failure ? 1 : 0;
  if (rs.run.rank == 0) {
    rs.result.status = rs.any_failure ? "failed" : "complete";
    rs.result.exit_code = outcome.exit_code;
    if (!rs.report([&](Reporter &r) { r.run_finished(rs.result); }, "error")) {
      *rs.options->err << "pio-harness: error: the results could not be written at the end of "
                          "the run; the run is failed\n";
      outcome.exit_code = 1;
    }
    outcome.run = std::move(rs.result);
  }
  MPI_Bcast(&outcome.exit_code, 1, MPI_INT, 0, rs.run.comm);
  return outcome;
}

} // namespace

RunOutcome run(const RunOptions &options, MPI_Comm comm) {
  const double entered = options.init_wtime >= 0 ? options.init_wtime : MPI_Wtime();
  RunInProgress in_progress; // an exit() from here on is a failed run
  RunState rs;
  rs.options = &options;
  rs.run.comm = comm;
  rs.run.module = comm;
  MPI_Comm_rank(comm, &rs.run.rank);
  MPI_Comm_size(comm, &rs.run.size);

  Prepared p;
  if (auto f = read_and_plan(options, rs.run, p))
    return stop_before_io(options, rs.run, *f);
  print_notes(options, rs.run, p);
  rs.config = &p.config;
  if (auto f = open_outputs(rs, p))
    return stop_before_io(options, rs.run, *f);
  // Every block's init_module, before any I/O (and in --check): a value only a module can
  // judge stops the run here, with exit code 2, before the first block (preflight.hpp).
  Watchdog watchdog(p.config.global.step_timeout, rs.run.rank);
  std::vector<std::vector<TestSpec>> declared;
  if (auto f = preflight(comm, p.plans, options.check_only, &declared))
    return stop_before_io(options, rs.run, *f);
  if (!options.tune_space_path.empty()) // for pio-tune: the space as checked just now
    if (auto f = agree(comm, rs.run.rank != 0 ? std::string() : capture("tune space", [&] {
                         write_tune_space(options.tune_space_path, p.space, p.config, p.plans);
                       })))
      return stop_before_io(options, rs.run, *f);
  if (options.check_only)
    return report_valid(options, rs.run, p, declared);
  const std::uint64_t seed = p.config.global.rounds > 1 ? agreed_round_seed(comm) : 0;
  const auto schedule =
      round_schedule(static_cast<int>(p.plans.size()), p.config.global.rounds, seed);
  rs.blocks_scheduled = static_cast<int>(schedule.size());
  rs.result.rounds = p.config.global.rounds;
  rs.result.rounds_seed = seed;
  if (rs.progress)
    rs.progress->set_plan(scheduled(progress_plan(p.plans, declared), schedule));

  OwnedFiles files(p.overwrite, p.keep, options.clean_stale);
  rs.files = &files;
  start_run(rs, p, entered);
  const bool config_error = !run_blocks(rs, p.plans, schedule);
  rs.chains.release_all(files, rs.run.comm);
  return finish_run(rs, config_error);
}

} // namespace pio::harness
