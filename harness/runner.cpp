// The harness: config -> plan -> loader -> for each module block the seven-method lifecycle
// under one timing method -> typed results -> reporters (pio-bench thesis §3.2-§3.3).
#include <algorithm>
#include <chrono>
#include <thread>

#include "block_context.hpp"
#include "config.hpp"
#include "consensus.hpp"
#include "directive_fault.hpp"
#include "json_reporter.hpp"
#include "loader.hpp"
#include "measure.hpp"
#include "module_plan.hpp"
#include "pio/mpi_handles.hpp"
#include "preflight.hpp"
#include "process_guard.hpp"
#include "provenance.hpp"
#include "reporters.hpp"
#include "results_file.hpp"
#include "run.hpp"
#include "run_state.hpp"
#include "sweep.hpp"
#include "test_runner.hpp"
#include "watchdog.hpp"

namespace pio::harness {

namespace {

/// The block's record before anything ran.
ModuleResult block_record(const ModulePlan &plan) {
  const ModuleBlock &block = *plan.block;
  ModuleResult m;
  m.module = plan.info->name;
  m.module_name = block.module_name;
  m.label = plan.label.empty() ? block.module_name : plan.label;
  m.config_location = block.file + ":" + std::to_string(block.line);
  m.library = plan.library->path;
  m.reference = plan.info->reference;
  m.output = plan.info->output;
  m.reps = block.reps;
  m.settings = plan.settings.all();
  for (const auto &[name, value] : block.swept) // a swept hint, as written (Hint:<key>)
    if (!m.settings.count(name) && name.rfind("Hint:", 0) == 0)
      m.settings[name] = {value};
  if (!block.processes_line.name.empty()) // the ranks the block ran on, when the config says
    m.settings["Processes"] = {std::to_string(block.processes)};
  m.collective = block.collective;
  m.file_view = block.file_view;
  m.verify = block.verify;
  m.sync_writes = block.sync_writes;
  m.started = utc_timestamp();
  return m;
}

/// One <ap_module> block: init, tests x reps, cleanup, figure. False (on every rank) when
/// init_module found a config error (a DirectiveError): the run stops there with exit code 2.
bool run_module(RunState &rs, const ModulePlan &plan, int block_index) {
  if (rs.rank == 0) {
    rs.result.modules.push_back(block_record(plan));
    rs.report([&](Reporter &r) {
      r.block_started(rs.result, rs.result.modules.back(), block_index,
                      static_cast<int>(rs.config->modules.size()));
    });
  }
  auto record = [&]() -> ModuleResult & { return rs.result.modules.back(); };
  const ModuleBlock &block = *plan.block;
  auto fail_module = [&](const Failure &f) {
    rs.any_failure = true;
    if (rs.rank == 0)
      record().error = ErrorRecord{f.rank, f.message};
  };
  auto finish = [&] {
    if (rs.rank == 0) {
      record().finished = utc_timestamp();
      rs.report([&](Reporter &r) { r.block_finished(rs.result, record()); });
    }
  };

  FileServices services(*rs.files, rs.kept);
  const ModuleContext mctx = block_context(rs.comm, *rs.config, plan, services);
  Instance inst;
  std::vector<TestSpec> tests;
  heartbeat_context("module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("init_module");
  bool config_error = false;
  auto f = agree(rs.comm, capture("init_module", [&] {
                   inst = instantiate(*plan.library, *plan.info);
                   init_with_located_errors(block, &config_error,
                                            [&] { tests = inst.module->init_module(mctx); });
                 }));
  if (f) {
    fail_module(*f);
    rs.release_kept();
    finish();
    return !any_rank(rs.comm, config_error);
  }
  if (rs.rank == 0)
    record().tests_planned = static_cast<int>(tests.size());
  for (size_t i = 0; i < tests.size(); ++i) {
    TestResult tr;
    tr.started = utc_timestamp();
    const auto failure = run_test(rs, *inst.module, mctx, plan, tests[i], static_cast<int>(i), tr);
    if (failure)
      rs.any_failure = true;
    if (rs.rank == 0) {
      tr.finished = utc_timestamp();
      if (failure)
        tr.error = ErrorRecord{failure->rank, failure->message};
      tr.summary = summarize_reps(tr.reps);
      record().tests.push_back(std::move(tr));
      rs.report([&](Reporter &r) { r.test_finished(rs.result, record(), record().tests.back()); });
    }
  }
  heartbeat_context("module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("cleanup_module");
  f = agree(rs.comm, capture("cleanup_module", [&] { inst.module->cleanup_module(mctx); }));
  rs.release_kept();
  if (f) {
    fail_module(*f);
  } else if (rs.rank == 0) {
    const std::string err =
        capture("figure", [&] { record().figure = inst.module->figure(record()); });
    if (!err.empty())
      fail_module(Failure{0, err});
  }
  finish();
  return true;
}

/// Prints an error that stops the run before any I/O (rank 0) and returns exit code 2.
RunOutcome stop_before_io(const RunOptions &options, int rank, const Failure &f) {
  if (rank == 0)
    *options.err << "pio-harness: error: " << f.message << "\n";
  return RunOutcome{2, nullptr, {}};
}

/// ModuleSettleTime (thesis Table 3.2), in slices that tell the watchdog the rank is alive.
void settle(double seconds) {
  using clock = std::chrono::steady_clock;
  heartbeat("ModuleSettleTime");
  const auto end = clock::now() + std::chrono::duration_cast<clock::duration>(
                                      std::chrono::duration<double>(seconds));
  while (clock::now() < end) {
    const clock::time_point slice = clock::now() + std::chrono::milliseconds(500);
    std::this_thread::sleep_until(std::min(end, slice));
    heartbeat("ModuleSettleTime");
  }
}

/// Waits at a block's end for every rank of the run, telling the watchdog this rank is alive
/// (a rank idle in a block of fewer Processes waits here for as long as the block runs), and
/// returns on every rank whether every rank passed ok. The polling backs off to 20 ms, so that
/// idle ranks leave the cores to the ranks measuring.
bool wait_for_block_end(MPI_Comm comm, bool ok) {
  heartbeat_wait();
  int mine = ok ? 1 : 0, all = 0;
  MPI_Request req;
  MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm, &req);
  auto pause = std::chrono::microseconds(50);
  for (int done = 0; MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done;) {
    heartbeat("waiting for the ranks of the block");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  return all == 1;
}

/// One block on the first plan.block->processes ranks of the run (all when 0); the other ranks
/// idle until its end. Returns run_module's verdict on every rank of the run.
bool run_block(RunState &rs, const ModulePlan &plan, int block_index) {
  const MPI_Comm run_comm = rs.comm;
  const int run_size = rs.size;
  const int procs = block_processes(*plan.block, run_size);
  Comm sub; // the block's ranks, when fewer than the run's (rank 0 of the run is its rank 0)
  if (procs < run_size) {
    heartbeat("MPI_Comm_split (Processes)");
    mpi_check(MPI_Comm_split(run_comm, rs.rank < procs ? 0 : MPI_UNDEFINED, rs.rank, sub.out()),
              "MPI_Comm_split");
  }
  bool ok = true;
  if (rs.rank < procs) {
    rs.comm = procs < run_size ? sub.get() : run_comm;
    rs.size = procs;
    try {
      ok = run_module(rs, plan, block_index);
    } catch (...) {
      rs.comm = run_comm;
      rs.size = run_size;
      throw;
    }
    rs.comm = run_comm;
    rs.size = run_size;
    if (ok && plan.block->settle_time > 0)
      settle(plan.block->settle_time);
  }
  return wait_for_block_end(run_comm, ok);
}

} // namespace

RunOutcome run(const RunOptions &options, MPI_Comm comm) {
  RunInProgress in_progress; // an exit() from here on is a failed run
  RunState rs;
  rs.comm = comm;
  rs.options = &options;
  MPI_Comm_rank(comm, &rs.rank);
  MPI_Comm_size(comm, &rs.size);

  // 1. Config, modules, directives: every error stops the run before any I/O.
  Config config;
  Catalog catalog;
  std::vector<ModulePlan> plans;
  std::string err = capture("config", [&] {
    config = parse_config(options.config_path);
    expand_processes(config, rs.size);
    catalog = scan_modules(module_search_path(options.module_dirs, config));
    plans = plan_modules(config, catalog);
  });
  if (auto f = agree(comm, err))
    return stop_before_io(options, rs.rank, *f);
  if (rs.rank == 0) {
    for (const auto &w : module_warnings(catalog))
      *options.err << "pio-harness: warning: " << w << "\n";
    for (const auto &n : config.notes)
      *options.err << "pio-harness: note: " << n << "\n";
  }
  rs.config = &config;
  if (config.modules.empty())
    return stop_before_io(
        options, rs.rank,
        Failure{0, "config: " + config.path +
                       " has no <ap_module> block "
                       "(fix: add at least one module block; see docs/configuration.md)"});

  const bool overwrite = options.overwrite || config.global.overwrite;
  const bool keep = options.keep_files || config.global.keep_files;
  const std::string results_path = !options.results_path.empty() ? options.results_path
                                   : !config.global.results_file.empty()
                                       ? config.global.results_file
                                       : "pio-results.json";
  // Refuse an existing TestFile (and CSV file) up front, before touching anything.
  err.clear();
  if (rs.rank == 0) {
    err = capture("config", [&] {
      TestFiles probe(overwrite, true, options.clean_stale);
      probe.check(config.global.test_file, options.err);
      for (const auto &b : config.modules)
        if (!b.test_file.empty())
          probe.check(b.test_file, options.err);
      rs.reporters = make_reporters(options, config, results_path, overwrite);
    });
  }
  if (auto f = agree(comm, err))
    return stop_before_io(options, rs.rank, *f);

  // Every block's init_module, before any I/O (and in --check): a value only a module can
  // judge stops the run here, with exit code 2, before the first block (preflight.hpp).
  Watchdog watchdog(config.global.step_timeout, rs.rank);
  if (auto f = preflight(comm, config, plans))
    return stop_before_io(options, rs.rank, *f);

  if (options.check_only) {
    if (rs.rank == 0)
      *options.out << "pio-harness: " << config.path << ": the config is valid ("
                   << config.modules.size() << " module block"
                   << (config.modules.size() == 1 ? "" : "s")
                   << ", each checked by its module); nothing was run (--check)\n";
    return RunOutcome{0, nullptr, {}};
  }
  TestFiles files(overwrite, keep, options.clean_stale);
  rs.files = &files;
  fill_provenance(comm, options.command_line, config.global.test_file, rs.result);
  if (rs.rank == 0) {
    rs.result.config_path = config.path;
    rs.result.config_text = config.text;
    fill_config_files(config.sources, rs.result);
    rs.result.results_path = results_path;
    rs.report([&](Reporter &r) { r.run_started(rs.result); });
  }

  // 2. Every block in order; a failed block does not stop the others.
  bool config_error = false; // a module's DirectiveError: stop, keep what was measured, exit 2
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!run_block(rs, plans[i], static_cast<int>(i))) {
      config_error = true; // the block's error is on the console already
      break;
    }
  }

  RunOutcome outcome;
  outcome.exit_code = config_error ? 2 : rs.any_failure ? 1 : 0;
  if (rs.rank == 0) {
    rs.result.status = rs.any_failure ? "failed" : "complete";
    rs.result.exit_code = outcome.exit_code;
    if (!rs.report([&](Reporter &r) { r.run_finished(rs.result); }, "error")) {
      *options.err << "pio-harness: error: the results could not be written at the end of the "
                      "run; the run is failed\n";
      outcome.exit_code = 1;
    }
    outcome.results = to_json(rs.result);
    outcome.run = std::move(rs.result);
  }
  // Every rank returns the same exit code, the root's included.
  MPI_Bcast(&outcome.exit_code, 1, MPI_INT, 0, comm);
  if (rs.rank != 0)
    outcome.results = {{"exit_code", outcome.exit_code}};
  return outcome;
}

} // namespace pio::harness
