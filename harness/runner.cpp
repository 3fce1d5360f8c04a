// The harness: config -> plan -> for each module block the seven-method lifecycle under one
// timing method -> results (DESIGN §2-§7, thesis §3.2-§3.3).
#include <unistd.h>

#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "config.hpp"
#include "consensus.hpp"
#include "console_report.hpp"
#include "loader.hpp"
#include "module_plan.hpp"
#include "pio/mpi_handles.hpp"
#include "results_file.hpp"
#include "run.hpp"
#include "stats.hpp"
#include "test_files.hpp"
#include "unit_loop.hpp"
#include "watchdog.hpp"

namespace pio::harness {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double bandwidth(std::int64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / kMiB / seconds : 0.0;
}

const char *file_use_name(FileUse f) {
  switch (f) {
  case FileUse::None:
    return "none";
  case FileUse::Shared:
    return "shared";
  case FileUse::FilePerProcess:
    return "file-per-process";
  }
  return "?";
}

/// Everything one run shares across modules.
struct RunState {
  MPI_Comm comm;
  int rank = 0, size = 1;
  const RunOptions *options = nullptr;
  const Config *config = nullptr;
  TestFiles *files = nullptr;
  nlohmann::json doc; // rank 0 only
  std::string results_path;
  TableOptions table;
  bool any_failure = false;
  std::set<std::string> kept; ///< files a module keeps between its tests (this rank's)

  /// Deletes the files the module kept between tests, once every rank is done with them.
  void release_kept() {
    MPI_Barrier(comm);
    for (const auto &p : kept)
      files->release(p);
    kept.clear();
    MPI_Barrier(comm);
  }

  void save() {
    if (rank != 0)
      return;
    try {
      save_results(results_path, doc);
    } catch (const Error &e) {
      *options->err << "pio-harness: warning: " << e.what() << " (fix: " << e.hint() << ")\n";
    }
  }
};

/// Per-rep measurements reduced to the test's root (rank 0 of the test communicator).
nlohmann::json rep_record(MPI_Comm tcomm, int rep, double open_t, double close_t,
                          const std::vector<PhaseTiming> &phases, const TestSpec &spec) {
  int trank = 0, tsize = 1;
  MPI_Comm_rank(tcomm, &trank);
  MPI_Comm_size(tcomm, &tsize);
  nlohmann::json r = {{"rep", rep}, {"open_time_s", open_t}, {"close_time_s", close_t}};
  nlohmann::json jp = nlohmann::json::array();
  std::int64_t total_bytes = 0, total_units = 0;
  double total_agg = 0, my_total_own = 0;
  for (size_t k = 0; k < phases.size(); ++k) {
    const auto &p = phases[k];
    std::int64_t bytes = 0;
    MPI_Allreduce(&p.bytes, &bytes, 1, MPI_INT64_T, MPI_SUM, tcomm);
    std::vector<double> own(static_cast<size_t>(tsize));
    MPI_Gather(&p.own_time, 1, MPI_DOUBLE, own.data(), 1, MPI_DOUBLE, 0, tcomm);
    total_bytes += bytes;
    total_units += p.units;
    total_agg += p.aggregate_time;
    my_total_own += p.own_time;
    jp.push_back({{"label", spec.phases[k].label},
                  {"units", p.units},
                  {"bytes", bytes},
                  {"aggregate_time_s", p.aggregate_time},
                  {"elapsed_time_s", p.elapsed},
                  {"time_budget_s", spec.phases[k].time_budget_s},
                  {"bandwidth_MiBps", bandwidth(bytes, p.aggregate_time)},
                  {"rank_time_s", to_json(summarize(own))}});
  }
  std::vector<double> own(static_cast<size_t>(tsize));
  MPI_Gather(&my_total_own, 1, MPI_DOUBLE, own.data(), 1, MPI_DOUBLE, 0, tcomm);
  r["phases"] = jp;
  r["units"] = total_units;
  r["bytes"] = total_bytes;
  r["aggregate_time_s"] = total_agg;
  r["bandwidth_MiBps"] = bandwidth(total_bytes, total_agg);
  r["rank_time_s"] = to_json(summarize(own));
  return r;
}

/// Over-repetition statistics (DESIGN §4: min / max / mean / stddev over ModuleReps).
nlohmann::json test_summary(const nlohmann::json &reps) {
  std::vector<double> bw, agg, open, close, rmin, rmax, rmean;
  for (const auto &r : reps) {
    bw.push_back(r["bandwidth_MiBps"]);
    agg.push_back(r["aggregate_time_s"]);
    open.push_back(r["open_time_s"]);
    close.push_back(r["close_time_s"]);
    rmin.push_back(r["rank_time_s"]["min"]);
    rmax.push_back(r["rank_time_s"]["max"]);
    rmean.push_back(r["rank_time_s"]["mean"]);
  }
  return {{"bandwidth_MiBps", to_json(summarize(bw))},
          {"aggregate_time_s", to_json(summarize(agg))},
          {"open_time_s", to_json(summarize(open))},
          {"close_time_s", to_json(summarize(close))},
          {"rank_time_s",
           {{"min", summarize(rmin).mean},
            {"mean", summarize(rmean).mean},
            {"max", summarize(rmax).mean}}}};
}

/// Runs all repetitions of one test on the participating ranks; returns the failure, if any,
/// agreed on tcomm. Fills `test_json` on the test's root.
std::optional<Failure> run_test_reps(RunState &rs, Module &module, const ModuleContext &mctx,
                                     const ModuleBlock &block, TestSpec &spec, int index,
                                     MPI_Comm tcomm, nlohmann::json &test_json) {
  int trank = 0, tsize = 1;
  MPI_Comm_rank(tcomm, &trank);
  MPI_Comm_size(tcomm, &tsize);
  const std::string base = block.test_file.empty() ? rs.config->global.test_file : block.test_file;
  const std::string shared_path = base + spec.file_suffix;
  const std::string path = spec.file == FileUse::FilePerProcess
                               ? shared_path + "." + std::to_string(rs.rank)
                               : shared_path;
  // Hints: the test's own, overridden by the block's Hint lines (which include global ones).
  std::map<std::string, std::string> hints = spec.hints;
  for (const auto &[k, v] : block.hints)
    hints[k] = v;
  if (trank == 0) {
    test_json["file"] = spec.file == FileUse::None ? nlohmann::json(nullptr) : nlohmann::json(path);
    test_json["hints_requested"] = hints;
  }
  // Only the rank that creates a shared file decides whether it may (and later deletes it).
  const bool owns_path =
      spec.file == FileUse::FilePerProcess || (spec.file == FileUse::Shared && trank == 0);
  std::optional<Failure> failure;
  const std::string where = "test " + std::to_string(index + 1) + " (" + spec.label + ")";
  heartbeat_context("module " + mctx.module_name + ", " + where);
  for (long rep = 0; rep < block.reps && !failure; ++rep) {
    TestContext tc;
    tc.module = &mctx;
    tc.spec = &spec;
    tc.test_index = index;
    tc.rep = static_cast<int>(rep);
    tc.comm = tcomm;
    tc.rank = trank;
    tc.size = tsize;
    tc.file_path = spec.file == FileUse::None ? "" : path;
    File file;
    double open_t = 0, close_t = 0;
    if (spec.file != FileUse::None) {
      std::string err;
      if (owns_path)
        err = capture(where + ": TestFile", [&] { rs.files->claim(path); });
      if ((failure = agree(tcomm, err)))
        break;
      MPI_Barrier(tcomm);
      const double t0 = MPI_Wtime();
      err = capture(where + ": open", [&] {
        Info info(hints);
        file = File(spec.file == FileUse::Shared ? tcomm : MPI_COMM_SELF, path, spec.amode, info);
      });
      const double mine = MPI_Wtime() - t0;
      MPI_Reduce(&mine, &open_t, 1, MPI_DOUBLE, MPI_MAX, 0, tcomm);
      if ((failure = agree(tcomm, err)))
        break;
      tc.file = file.get();
      if (rep == 0) {
        std::map<std::string, std::string> effect;
        err = capture(where + ": MPI_File_get_info", [&] { effect = file.hints_in_effect(); });
        if (trank == 0)
          test_json["hints_in_effect"] = effect;
        if ((failure = agree(tcomm, err)))
          break;
      }
    }
    if ((failure =
             agree(tcomm, capture(where + ": describe_test", [&] { module.describe_test(tc); })))) {
      capture("cleanup_test", [&] { module.cleanup_test(tc); });
      break;
    }
    std::vector<PhaseTiming> timings;
    for (size_t k = 0; k < spec.phases.size() && !failure; ++k) {
      timings.push_back(
          run_phase(module, tc, static_cast<int>(k), mctx.sync_writes, mctx.collective));
      failure = timings.back().failure;
    }
    if (failure) {
      failure->message = where + ", rep " + std::to_string(rep) + ": " + failure->message;
      tc.file = MPI_FILE_NULL;
      file.reset();
      capture("cleanup_test", [&] { module.cleanup_test(tc); });
      break;
    }
    if (spec.file != FileUse::None) {
      MPI_Barrier(tcomm);
      const double t0 = MPI_Wtime();
      std::string err = capture(where + ": close", [&] { file.close(); });
      const double mine = MPI_Wtime() - t0;
      MPI_Reduce(&mine, &close_t, 1, MPI_DOUBLE, MPI_MAX, 0, tcomm);
      if ((failure = agree(tcomm, err)))
        break;
    }
    tc.file = MPI_FILE_NULL;
    if ((failure =
             agree(tcomm, capture(where + ": cleanup_test", [&] { module.cleanup_test(tc); }))))
      break;
    nlohmann::json r = rep_record(tcomm, static_cast<int>(rep), open_t, close_t, timings, spec);
    if (trank == 0)
      test_json["reps"].push_back(r);
  }
  // The harness deletes what it created (after every rank has closed it), unless the module
  // keeps the file for a later test; kept files go after cleanup_module.
  MPI_Barrier(tcomm);
  if (spec.file != FileUse::None && owns_path) {
    if (spec.keep_file)
      rs.kept.insert(path);
    else
      rs.files->release(path);
  }
  MPI_Barrier(tcomm);
  return failure;
}

/// One <ap_module> block: init, tests x reps, cleanup, summary. Returns false on failure.
void run_module(RunState &rs, const ModulePlan &plan, int block_index) {
  const ModuleBlock &block = *plan.block;
  nlohmann::json mj = {{"module", plan.info->name},
                       {"module_name", block.module_name},
                       {"config", block.file + ":" + std::to_string(block.line)},
                       {"library", plan.library->path},
                       {"reference", plan.info->reference},
                       {"reps", block.reps},
                       {"settings", plan.settings.all()},
                       {"collective", block.collective},
                       {"file_view", block.file_view},
                       {"verify", block.verify},
                       {"sync_writes", block.sync_writes},
                       {"tests", nlohmann::json::array()},
                       {"error", nullptr},
                       {"figure", nullptr}};
  auto &modules = rs.doc["modules"];
  if (rs.rank == 0) {
    modules.push_back(mj);
    std::ostringstream heading;
    heading << "[" << block_index + 1 << "/" << rs.config->modules.size() << "] "
            << plan.info->name;
    if (plan.settings.has("Mode"))
      heading << " (" << plan.settings.text("Mode") << ")";
    heading << "  " << block.file << ":" << block.line << "  reps " << block.reps;
    print_module_header(*rs.options->out, heading.str(), rs.table);
  }
  auto module_json = [&]() -> nlohmann::json & { return rs.doc["modules"].back(); };
  auto fail_module = [&](const Failure &f) {
    rs.any_failure = true;
    if (rs.rank == 0) {
      module_json()["error"] = {{"rank", f.rank}, {"message", f.message}};
      *rs.options->err << "pio-harness: error: module " << plan.info->name << " (" << block.file
                       << ":" << block.line << "), rank " << f.rank << ": " << f.message << "\n";
      rs.save();
    }
  };

  ModuleContext mctx;
  mctx.comm = rs.comm;
  mctx.rank = rs.rank;
  mctx.size = rs.size;
  mctx.module_name = plan.info->name;
  mctx.settings = plan.settings;
  mctx.test_file = block.test_file.empty() ? rs.config->global.test_file : block.test_file;
  mctx.verify = block.verify;
  mctx.sync_writes = block.sync_writes;
  mctx.collective = block.collective;
  mctx.use_file_view = block.file_view;
  mctx.hints = block.hints;

  Instance inst;
  std::vector<TestSpec> tests;
  auto f = agree(rs.comm, capture("init_module", [&] {
                   inst = instantiate(*plan.library, *plan.info);
                   tests = inst.module->init_module(mctx);
                 }));
  if (f) {
    fail_module(*f);
    rs.release_kept();
    return;
  }
  for (size_t i = 0; i < tests.size(); ++i) {
    TestSpec &spec = tests[i];
    if (spec.phases.empty())
      spec.phases.push_back(Phase{});
    nlohmann::json tj = {{"index", i},
                         {"label", spec.label},
                         {"buffer_size", spec.buffer_size},
                         {"header_offset", spec.header_offset},
                         {"file_use", file_use_name(spec.file)},
                         {"procs", spec.procs > 0 ? spec.procs : rs.size},
                         {"params", spec.params},
                         {"reps", nlohmann::json::array()},
                         {"error", nullptr}};
    std::optional<Failure> failure;
    if (spec.procs > rs.size) {
      failure = Failure{0, "test " + std::to_string(i + 1) + " (" + spec.label + ") needs " +
                               std::to_string(spec.procs) + " processes, the run has " +
                               std::to_string(rs.size) + " (fix: run with mpiexec -n " +
                               std::to_string(spec.procs) + " or more)"};
    } else {
      // A test on fewer ranks runs on a sub-communicator of the first `procs` ranks
      // (thesis Table A.1 num_procs_participating); the others wait at the next agreement.
      Comm sub;
      MPI_Comm tcomm = rs.comm;
      if (spec.procs > 0 && spec.procs < rs.size) {
        MPI_Comm raw = MPI_COMM_NULL;
        MPI_Comm_split(rs.comm, rs.rank < spec.procs ? 0 : MPI_UNDEFINED, rs.rank, &raw);
        sub = Comm(raw);
        tcomm = raw;
      }
      std::optional<Failure> local;
      if (tcomm != MPI_COMM_NULL)
        local = run_test_reps(rs, *inst.module, mctx, block, spec, static_cast<int>(i), tcomm, tj);
      failure = agree(rs.comm, local ? local->message : "");
    }
    if (rs.rank == 0) {
      if (failure) {
        tj["error"] = {{"rank", failure->rank}, {"message", failure->message}};
        *rs.options->err << "pio-harness: error: module " << plan.info->name << " (" << block.file
                         << ":" << block.line << "): " << failure->message << "\n";
      }
      tj["summary"] = test_summary(tj["reps"]);
      module_json()["tests"].push_back(tj);
      print_test_rows(*rs.options->out, tj, rs.table);
      rs.save(); // valid after every completed test
    }
    if (failure)
      rs.any_failure = true;
  }
  f = agree(rs.comm, capture("cleanup_module", [&] { inst.module->cleanup_module(mctx); }));
  rs.release_kept();
  if (f) {
    fail_module(*f);
    return;
  }
  if (rs.rank == 0) {
    std::string err = capture("summarize", [&] {
      nlohmann::json fig = inst.module->summarize(module_json());
      module_json()["figure"] = fig;
      if (!fig.is_null() && fig.contains("text"))
        *rs.options->out << fig["text"].get<std::string>();
    });
    if (!err.empty()) {
      rs.any_failure = true;
      module_json()["error"] = {{"rank", 0}, {"message", err}};
      *rs.options->err << "pio-harness: error: module " << plan.info->name << ": " << err << "\n";
    }
    rs.save();
  }
}

/// Prints an error that stops the run before any I/O (rank 0) and returns exit code 2.
RunOutcome stop_before_io(const RunOptions &options, int rank, const Failure &f) {
  if (rank == 0)
    *options.err << "pio-harness: error: " << f.message << "\n";
  return RunOutcome{2, nullptr};
}

} // namespace

RunOutcome run(const RunOptions &options, MPI_Comm comm) {
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
    catalog = scan_modules(module_search_path(options.module_dirs, config));
    plans = plan_modules(config, catalog);
  });
  if (auto f = agree(comm, err))
    return stop_before_io(options, rs.rank, *f);
  rs.config = &config;
  if (config.modules.empty())
    return stop_before_io(
        options, rs.rank,
        Failure{0, "config: " + config.path +
                       " has no <ap_module> block "
                       "(fix: add at least one module block; see docs/configuration.md)"});

  const bool overwrite = options.overwrite || config.global.overwrite;
  const bool keep = options.keep_files || config.global.keep_files;
  // Refuse an existing TestFile up front, before touching anything (DESIGN §7).
  err.clear();
  if (rs.rank == 0 && !overwrite) {
    TestFiles probe(false, true);
    err = capture("config", [&] {
      probe.claim(config.global.test_file);
      for (const auto &b : config.modules)
        if (!b.test_file.empty())
          probe.claim(b.test_file);
    });
  }
  if (auto f = agree(comm, err))
    return stop_before_io(options, rs.rank, *f);

  Watchdog watchdog(config.global.step_timeout, rs.rank);
  TestFiles files(overwrite, keep);
  rs.files = &files;
  rs.table = {config.global.show_averages, config.global.report_open_time,
              config.global.report_close_time, config.global.report_header_offset};
  rs.results_path = !options.results_path.empty()         ? options.results_path
                    : !config.global.results_file.empty() ? config.global.results_file
                                                          : "pio-results.json";
  nlohmann::json prov = provenance(comm, options.command_line, config.global.test_file);
  if (rs.rank == 0) {
    rs.doc = prov;
    rs.doc["config_path"] = config.path;
    rs.doc["config_text"] = config.text;
    rs.doc["status"] = "running";
    rs.doc["modules"] = nlohmann::json::array();
    rs.save();
    *options.out << "pio-bench " << kToolVersion << ": " << rs.size << " processes, test file "
                 << config.global.test_file << " (" << prov["file_system"].get<std::string>()
                 << "), results " << rs.results_path << "\n";
  }

  // 2. Every block in order; a failed block does not stop the others.
  for (size_t i = 0; i < plans.size(); ++i) {
    run_module(rs, plans[i], static_cast<int>(i));
    const double settle = plans[i].block->settle_time;
    if (settle > 0) // ModuleSettleTime (thesis Table 3.2)
      std::this_thread::sleep_for(std::chrono::duration<double>(settle));
    MPI_Barrier(comm);
  }

  RunOutcome outcome;
  outcome.exit_code = rs.any_failure ? 1 : 0;
  if (rs.rank == 0) {
    rs.doc["status"] = rs.any_failure ? "failed" : "complete";
    rs.doc["exit_code"] = outcome.exit_code;
    rs.save();
    *options.out << "\nresults: " << rs.results_path
                 << (rs.any_failure ? "  (some tests FAILED; see above)\n" : "\n");
    outcome.results = rs.doc;
  } else {
    outcome.results = {{"exit_code", outcome.exit_code}};
  }
  return outcome;
}

} // namespace pio::harness
