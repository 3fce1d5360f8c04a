// One block (run_block.hpp): init_module, every test and repetition, cleanup_module, figure, on
// the block's ranks (pio-bench thesis §3.3.2, the seven-method lifecycle).
#include "run/run_block.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "guard/position.hpp"
#include "load/library.hpp"
#include "pio/mpi_handles.hpp"
#include "plan/directive_fault.hpp"
#include "report/provenance.hpp"
#include "run/block_context.hpp"
#include "run/consensus.hpp"
#include "run/flag_rules.hpp"
#include "run/idle_wait.hpp"
#include "run/measure.hpp"
#include "run/rank_groups.hpp"
#include "run/repetitions.hpp"

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
  m.family = plan.info->family;
  m.reps = block.reps;
  m.reps_auto = block.reps_auto;
  m.reps_target = block.reps_auto ? block.reps_target : 0;
  m.reps_time_cap_s = block.reps_auto ? block.reps_time_cap : 0;
  static_cast<BlockSettings &>(m) = block; // Verify, Collective ... as the block ran them
  m.read_shift = block.read_shift;
  m.time_budget_s = plan.time_budget_s;
  m.settings = plan.settings.all();
  for (const auto &[name, value] : block.swept) // a swept hint, as written (Hint:<key>)
    if (!m.settings.count(name) && name.rfind("Hint:", 0) == 0)
      m.settings[name] = {value};
  if (!block.processes_line.name.empty()) // the ranks the block ran on, when the config says
    m.settings["Processes"] = {std::to_string(block.processes)};
  if (!block.files_from.name.empty())
    m.files_from = block.files_from.args.at(0);
  m.interface = plan.backend->name; // the block's word, or its module's default
  m.interface_settings = plan.interface_settings;
  m.started = utc_timestamp();
  return m;
}

/// After a block of a chain sharing files (FilesFrom, plan/file_chains.hpp): the agreed failure
/// to remove the chain's files after its last block.
std::optional<Failure> end_of_chain_block(RunState &rs, const BlockRanks &ranks,
                                          const ModulePlan &plan, bool failed) {
  const auto left = rs.chains.after_block(plan, failed, *rs.files, ranks.comm);
  if (!left)
    return std::nullopt;
  auto agreed = agree(ranks.comm, *left);
  if (agreed)
    agreed->message = "the files of its chain (FilesFrom) were not all removed: " + agreed->message;
  return agreed;
}

/// Every test of the block in order, each recorded and reported as it ends (rank 0). Returns
/// false (on every rank) if any test failed.
bool run_tests(RunState &rs, const BlockRanks &ranks, Module &module, const ModuleContext &mctx,
               const ModulePlan &plan, const std::vector<TestSpec> &tests) {
  bool ok = true;
  for (size_t i = 0; i < tests.size(); ++i) {
    TestResult tr;
    tr.started = utc_timestamp();
    const auto failure = run_test(rs, ranks, module, mctx, plan, tests[i], static_cast<int>(i), tr);
    ok = ok && !failure;
    if (ranks.rank != 0)
      continue;
    ModuleResult &record = rs.result.modules.back();
    tr.finished = utc_timestamp();
    if (failure)
      tr.error = ErrorRecord{failure->rank, failure->message, failure->host};
    tr.summary = summarize_reps(tr.reps);
    assess_test(tr, record, rs.result);
    record.tests.push_back(std::move(tr));
    rs.report([&](Reporter &r) { r.test_finished(rs.result, record, record.tests.back()); });
  }
  if (ranks.rank == 0) // a communication table's first length, against the next
    assess_first_lengths(rs.result.modules.back());
  return ok;
}

/// One <ap_module> block: init, tests x reps, cleanup, figure. False (on every rank) when
/// init_module found a config error (a DirectiveError): the run stops there with exit code 2.
bool run_module(RunState &rs, const BlockRanks &ranks, const ModulePlan &plan, int block_index) {
  if (ranks.rank == 0) {
    rs.result.modules.push_back(block_record(plan));
    rs.report([&](Reporter &r) {
      r.block_started(rs.result, rs.result.modules.back(), block_index, rs.blocks_scheduled);
    });
  }
  auto record = [&]() -> ModuleResult & { return rs.result.modules.back(); };
  const ModuleBlock &block = *plan.block;
  bool block_failed = false; // agreed by the block's ranks
  auto fail_module = [&](const Failure &f) {
    rs.any_failure = block_failed = true;
    if (ranks.rank == 0)
      record().error = ErrorRecord{f.rank, f.message, f.host};
  };
  auto finish = [&] {
    if (auto f = end_of_chain_block(rs, ranks, plan, block_failed))
      fail_module(*f);
    if (ranks.rank == 0) {
      record().finished = utc_timestamp();
      rs.report([&](Reporter &r) { r.block_finished(rs.result, record()); });
    }
  };

  // FilesFrom: a block whose chain failed before it does not run on files that may be incomplete.
  if (const std::string *broken = rs.chains.broken_before(plan)) {
    fail_module(Failure{0,
                        "FilesFrom " + block.files_from.args.at(0) + ": block " + *broken +
                            " of its chain failed, so the files this block would use may be "
                            "incomplete; it did not run (fix that block's error first)",
                        {}});
    finish();
    return true;
  }
  // Files the module claims stay for a later block of its chain, else go after cleanup_module.
  FileServices services(*rs.files, rs.chains.claims_of(plan, rs.kept), ranks.rank);
  // The block's backend, configured with its options; destroyed after the module instance.
  std::unique_ptr<io::Backend> backend;
  const std::string made =
      capture("Interface " + plan.backend->name, [&] { backend = make_backend(plan); });
  const ModuleContext mctx = block_context(ranks.module, plan, services, backend.get());
  Instance inst;
  std::vector<TestSpec> tests;
  heartbeat_context("module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("init_module");
  bool config_error = false;
  auto f = agree(ranks.comm, !made.empty() ? made : capture("init_module", [&] {
                   inst = instantiate(*plan.library, *plan.info);
                   init_with_located_errors(block, &config_error,
                                            [&] { tests = inst.module->init_module(mctx); });
                 }));
  if (f) {
    fail_module(*f);
    rs.release_kept(ranks.comm);
    finish();
    return !any_rank(ranks.comm, config_error);
  }
  // Files the module claimed and made in init_module (b_eff_io's shared-pointer probe), as it
  // left them: a crash in the first test leaves them provably this run's (owner_record.hpp).
  rs.files->stamp_all();
  if (ranks.rank == 0)
    record().tests_planned = static_cast<int>(tests.size());
  if (!run_tests(rs, ranks, *inst.module, mctx, plan, tests))
    rs.any_failure = block_failed = true;
  heartbeat_context("module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("cleanup_module");
  f = agree(ranks.comm, capture("cleanup_module", [&] { inst.module->cleanup_module(mctx); }));
  rs.release_kept(ranks.comm);
  if (f) {
    fail_module(*f);
  } else if (ranks.rank == 0) {
    const std::string err =
        capture("figure", [&] { record().figure = inst.module->figure(record()); });
    if (!err.empty())
      fail_module(Failure{0, err, {}});
  }
  finish();
  return true;
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
  int mine = ok ? 1 : 0, all = 0;
  MPI_Request req;
  MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm, &req);
  wait_alive(req, "waiting for the ranks of the block", std::chrono::microseconds(20000));
  return all == 1;
}

} // namespace

bool run_block(RunState &rs, const ModulePlan &plan, int index) {
  const BlockRanks &run = rs.run;
  const int procs = block_processes(*plan.block, run.size);
  Comm sub; // the block's ranks, when fewer than the run's (rank 0 of the run is its rank 0)
  if (procs < run.size) {
    heartbeat("MPI_Comm_split (Processes)");
    mpi_check(MPI_Comm_split(run.comm, run.rank < procs ? 0 : MPI_UNDEFINED, run.rank, sub.out()),
              "MPI_Comm_split");
  }
  bool ok = true;
  if (run.rank < procs) {
    BlockRanks block{procs < run.size ? sub.get() : run.comm, run.rank, procs};
    Comm node; // the block's ranks on this node, whose leader reads the node's counters
    mpi_check(
        MPI_Comm_split_type(block.comm, MPI_COMM_TYPE_SHARED, run.rank, MPI_INFO_NULL, node.out()),
        "MPI_Comm_split_type");
    block.node = node.get();
    const Comm shifted = shifted_ranks(block.comm, plan.block->read_shift); // ReadShift
    block.module = shifted.get() != MPI_COMM_NULL ? shifted.get() : block.comm;
    ok = run_module(rs, block, plan, index);
    if (ok && plan.block->settle_time > 0)
      settle(plan.block->settle_time);
  }
  return wait_for_block_end(run.comm, ok);
}

} // namespace pio::harness
