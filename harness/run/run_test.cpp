// One test: communicators from its RankGroups, the file the harness opens for it, every
// repetition under the one timing method (thesis §3.2.1, Fig. 3.3), and its typed result.
#include "run/run_test.hpp"

#include <chrono>

#include "guard/position.hpp"
#include "pio/io/backend.hpp"
#include "pio/mpi_handles.hpp"
#include "run/idle_wait.hpp"
#include "run/measure.hpp"
#include "run/page_cache.hpp"
#include "run/op_latency.hpp"
#include "run/rank_groups.hpp"
#include "run/steadiness.hpp"
#include "run/test_conditions.hpp"
#include "run/test_shape.hpp"

namespace pio::harness {

namespace {

/// The rank in `to` of rank r of `from`.
int rank_in(MPI_Comm from, int r, MPI_Comm to) {
  MPI_Group a, b;
  MPI_Comm_group(from, &a);
  MPI_Comm_group(to, &b);
  int out = MPI_UNDEFINED;
  MPI_Group_translate_ranks(a, 1, &r, b, &out);
  MPI_Group_free(&a);
  MPI_Group_free(&b);
  return out == MPI_UNDEFINED ? 0 : out;
}

/// The path of this rank's file in a test ("" without a file): a file per process carries the
/// module's rank, which ReadShift moves onto another rank's file.
std::string test_path(const ModuleContext &mctx, const TestSpec &spec, const GroupComms &c) {
  if (spec.file == FileUse::None)
    return {};
  std::string path = mctx.test_file + spec.file_suffix;
  if (c.groups > 1 && spec.file == FileUse::Shared)
    path += ".g" + std::to_string(c.group_index); // each group its own shared file
  if (spec.file == FileUse::FilePerProcess)
    path += "." + std::to_string(mctx.rank);
  return path;
}

/// Whether a phase reads the file, so the page cache is measured (and dropped) before it.
bool reads(PhaseAccess a) { return a == PhaseAccess::Read || a == PhaseAccess::ReRead; }

/// ModuleReps auto: whether to stop after this repetition, decided by the root from the
/// repetitions so far and broadcast over `all`; sets result.reps_stop on the root.
bool auto_reps_done(MPI_Comm all, int trank, const ModuleBlock &block, TestResult &result,
                    double started) {
  int stop = 0;
  if (trank == 0) {
    std::vector<double> figures;
    for (const auto &r : result.reps)
      figures.push_back(figure_of(r, result));
    result.reps_stop = auto_reps_stop(figures, block.reps_target, MPI_Wtime() - started,
                                      block.reps_time_cap, block.reps);
    stop = result.reps_stop ? 1 : 0;
  }
  MPI_Bcast(&stop, 1, MPI_INT, 0, all);
  return stop != 0;
}

/// The block's TimingScope and StoneWall (checked when the config was read).
LoopControls loop_controls(const ModuleBlock &block) {
  LoopControls c;
  c.scope = parse_timing_scope(block.timing_scope);
  c.stone_wall_s = block.stone_wall;
  c.wear_out = block.stone_wall_wear_out;
  c.sync_at_end = block.sync_at_end;
  return c;
}

/// What makes a test impossible before anything runs ("" if nothing); the same on every rank.
std::string check_test(const BlockRanks &ranks, const TestSpec &spec) {
  if (std::string g = check_groups(spec.groups, ranks.size); !g.empty())
    return g;
  if (spec.phases.empty())
    return "the test has no phases (fix: leave TestSpec::phases at its default of one phase)";
  return {};
}

/// The repetitions of one test on the ranks taking part.
std::optional<Failure> run_reps(RunState &rs, const BlockRanks &ranks, Module &module,
                                const ModuleContext &mctx, const ModulePlan &plan,
                                const TestSpec &spec, int index, const GroupComms &c,
                                TestResult &result) {
  const ModuleBlock &block = *plan.block;
  // FilesFrom: the units each phase of the earlier block's same test completed on this rank.
  const auto earlier = rs.chain_units.find({plan.chain.source, index});
  const std::vector<std::int64_t> *made =
      plan.chain.source >= 0 && earlier != rs.chain_units.end() ? &earlier->second : nullptr;
  int trank = 0;
  MPI_Comm_rank(c.all, &trank);
  int grank = 0, gsize = 1;
  MPI_Comm_rank(c.group, &grank);
  MPI_Comm_size(c.group, &gsize);
  // ReadShift: the module works on its group renumbered (rank r is r + ReadShift), so that its
  // part of a shared file, and a file per process, are another rank's; the harness keeps its
  // own numbering (the shared file's owner, the agreements, the statistics).
  const Comm shifted = shifted_ranks(c.group, block.read_shift);
  const MPI_Comm module_group = shifted.get() != MPI_COMM_NULL ? shifted.get() : c.group;
  int mrank = grank;
  MPI_Comm_rank(module_group, &mrank);
  const std::string path = test_path(mctx, spec, c);
  // Hints: the test's own, overridden by the block's Hint lines (which include global ones).
  std::map<std::string, std::string> hints = spec.hints;
  for (const auto &[k, v] : block.hints)
    hints[k] = v;
  if (trank == 0) {
    result.file = path;
    result.hints_requested = hints;
  }
  // Only the rank that creates a file decides whether it may (and later deletes it); a rank
  // shifted onto another's file per process leaves it to that rank.
  const bool owns_path = (spec.file == FileUse::FilePerProcess && mctx.rank == ranks.rank) ||
                         (spec.file == FileUse::Shared && grank == 0);
  const MPI_Comm open_comm = spec.file == FileUse::Shared ? module_group : MPI_COMM_SELF;
  std::optional<Failure> failure;
  const std::string where = "test " + std::to_string(index + 1) + " (" + spec.label + ")";
  heartbeat_context("module " + mctx.module_name + ", " + where);
  const double started = MPI_Wtime();
  for (long rep = 0; (block.reps_auto || rep < block.reps) && !failure; ++rep) {
    TestSpec running = spec; // every repetition starts from the declared test
    // A block working on an earlier block's files goes no further than that block wrote: the
    // module sees the capped count from describe_test on. A test with units of its own over the
    // files bounds itself by their size (ChainCap::FileSize).
    const bool capped = made && spec.chain_cap == ChainCap::Units;
    for (size_t k = 0; capped && k < made->size() && k < running.phases.size(); ++k)
      if ((*made)[k] > 0 && running.phases[k].work_units > (*made)[k])
        running.phases[k].work_units = (*made)[k];
    TestContext tc(mctx, running);
    tc.test_index = index;
    tc.rep = static_cast<int>(rep);
    tc.comm = module_group;
    tc.all = c.all;
    tc.rank = mrank;
    tc.size = gsize;
    tc.group = c.group_index;
    tc.groups = c.groups;
    tc.file_path = path;
    // Before the file: an operation still in flight when a phase fails reports here until the
    // file's close completes it.
    LatencyRecorder latencies;
    std::unique_ptr<io::OpenFile> file;
    double open_t = 0, close_t = 0;
    if (spec.file != FileUse::None) {
      std::string err;
      if (owns_path)
        err = capture(where + ": TestFile", [&] { rs.files->claim(path); });
      if ((failure = agree(c.all, err)))
        break;
      MPI_Barrier(c.all);
      const double t0 = MPI_Wtime();
      heartbeat("MPI_File_open");
      err = capture(where + ": open",
                    [&] { file = mctx.backend->open(open_comm, path, spec.amode, hints); });
      const double mine = MPI_Wtime() - t0;
      MPI_Reduce(&mine, &open_t, 1, MPI_DOUBLE, MPI_MAX, 0, c.all);
      if ((failure = agree(c.all, err)))
        break;
      if (owns_path) // the record names the file now (its device and inode)
        rs.files->stamp(path, true);
      tc.io = &file->io();
      if (rep == 0) {
        std::map<std::string, std::string> effect;
        err = capture(where + ": MPI_File_get_info", [&] { effect = file->hints_in_effect(); });
        if (trank == 0)
          result.hints_in_effect = effect;
        if ((failure = agree(c.all, err)))
          break;
      }
    }
    heartbeat("describe_test");
    failure = agree(c.all, capture(where + ": describe_test", [&] { module.describe_test(tc); }));
    if (!failure && (failure = disagreement_on_shape(c.all, running)))
      failure->message = where + ", rep " + std::to_string(rep) + ": " + failure->message;
    if (failure) {
      tc.io = nullptr;
      file.reset();
      capture("cleanup_test", [&] { module.cleanup_test(tc); });
      break;
    }
    std::vector<PhaseTiming> timings;
    std::vector<std::optional<CacheCheck>> caches(running.phases.size());
    for (size_t k = 0; k < running.phases.size() && !failure; ++k) {
      // Before a read phase, untimed: CacheMode drop's flush and eviction, then the residency of
      // the files the nodes will read (docs/reference/timing.md, "The page cache").
      if (file && reads(running.phases[k].access)) {
        heartbeat("page cache");
        std::string err;
        const CacheCheck check = check_page_cache(c.all, path, block.cache_mode == CacheMode::Drop,
                                                  running.phases[k].access, err);
        if ((failure = agree(c.all, err.empty() ? err : where + ": page cache: " + err)))
          break;
        caches[k] = check;
      }
      LoopControls controls = loop_controls(block);
      controls.listener = rs.listener;
      controls.latencies = &latencies;
      // A phase after a stonewalled one that stopped early reads no further than it wrote.
      if (k > 0 && timings.back().stonewalled && running.phases[k].time_budget_s <= 0)
        controls.unit_cap = stonewall_cap(timings.back().units, running.phases[k - 1].work_units,
                                          running.phases[k].work_units);
      latencies.clear();
      timings.push_back(run_phase(module, tc, c.all, static_cast<int>(k), mctx.sync_writes,
                                  mctx.collective, controls));
      failure = timings.back().failure;
      if (!failure && spec.file != FileUse::None)
        timings.back().latency = reduce_latencies(c.all, latencies);
    }
    if (failure) {
      failure->message = where + ", rep " + std::to_string(rep) + ": " + failure->message;
      tc.io = nullptr;
      file.reset();
      capture("cleanup_test", [&] { module.cleanup_test(tc); });
      break;
    }
    if (spec.file != FileUse::None) {
      MPI_Barrier(c.all);
      const double t0 = MPI_Wtime();
      heartbeat("MPI_File_close");
      std::string err = capture(where + ": close", [&] { file->close(); });
      const double mine = MPI_Wtime() - t0;
      MPI_Reduce(&mine, &close_t, 1, MPI_DOUBLE, MPI_MAX, 0, c.all);
      if (owns_path && err.empty()) // at rest: its size and modification time as left
        rs.files->stamp(path, false);
      if ((failure = agree(c.all, err)))
        break;
    }
    tc.io = nullptr;
    heartbeat("cleanup_test");
    if ((failure =
             agree(c.all, capture(where + ": cleanup_test", [&] { module.cleanup_test(tc); }))))
      break;
    if (plan.chain.used_later) { // what a later block of the chain may read
      std::vector<std::int64_t> &units = rs.chain_units[{plan.chain.self, index}];
      units.clear();
      for (const PhaseTiming &t : timings)
        units.push_back(t.units);
    }
    Repetition r = reduce_repetition(c.all, GroupPlace{c.group_index, c.groups}, timings, running,
                                     static_cast<int>(rep), open_t, close_t);
    if (trank == 0) {
      for (size_t k = 0; k < caches.size() && k < r.phases.size(); ++k)
        r.phases[k].cache = caches[k];
      result.comm = running.comm; // with any set_ops_per_unit of this repetition
      result.reps.push_back(std::move(r));
    }
    if (block.reps_auto && auto_reps_done(c.all, trank, block, result, started))
      break;
  }
  // The harness deletes what it created (after every rank has closed it), unless the module
  // keeps the file for a later test (kept files go after cleanup_module) or a later block of
  // its chain uses it (FilesFrom: it goes after the chain's last block).
  MPI_Barrier(c.all);
  if (spec.file != FileUse::None && owns_path) {
    if (plan.chain.used_later)
      rs.chain_files[plan.chain.first].insert(path);
    else if (spec.keep_file)
      rs.kept.insert(path);
    else
      rs.files->release(path);
  }
  rs.files->stamp_all(); // the files modules claimed, as this test left them
  MPI_Barrier(c.all);
  return failure;
}

} // namespace

std::optional<Failure> run_test(RunState &rs, const BlockRanks &ranks, Module &module,
                                const ModuleContext &mctx, const ModulePlan &plan,
                                const TestSpec &spec, int index, TestResult &result) {
  result.index = index;
  result.label = spec.label;
  result.buffer_size = spec.buffer_size;
  result.header_offset = spec.header_offset;
  result.file_use = spec.file;
  result.params = spec.params;
  result.comm = spec.comm;
  result.merit = spec.merit;
  result.procs = ranks.size;
  result.timing_scope = timing_scope_name(loop_controls(*plan.block).scope);
  result.stone_wall_s = plan.block->stone_wall;
  const std::string problem = check_test(ranks, spec);
  if (!problem.empty())
    return Failure{
        0, "test " + std::to_string(index + 1) + " (" + spec.label + "): " + problem, {}};
  // The node's counters before the test (its leader), for what the nodes saw during it.
  const NodeSample start = rs.node.leader ? sample_node() : NodeSample{};
  GroupComms c = make_group_comms(ranks.comm, spec.groups);
  result.procs = c.procs;
  result.groups = c.groups;
  std::optional<Failure> local;
  int failed_rank = ranks.size; // the failing rank in the block (size: none)
  if (c.all != MPI_COMM_NULL) {
    local = run_reps(rs, ranks, module, mctx, plan, spec, index, c, result);
    if (local)
      failed_rank = rank_in(c.all, local->rank, ranks.comm);
  }
  // Ranks idle in this test wait here for those that ran it, telling the watchdog they are
  // alive (a test on some ranks may take long; a rank stuck in it has its own watchdog). The
  // pause stays short: a block may have thousands of tests.
  MPI_Request idle;
  MPI_Ibarrier(ranks.comm, &idle);
  wait_alive(idle, "waiting for the ranks in the test", std::chrono::microseconds(200));
  const TestConditions seen = test_conditions(ranks.comm, ranks.node, c.all != MPI_COMM_NULL,
                                              rs.node.conditions.usable_cores, start);
  if (ranks.rank == 0)
    result.conditions = seen;
  int first = failed_rank;
  MPI_Allreduce(&failed_rank, &first, 1, MPI_INT, MPI_MIN, ranks.comm);
  auto agreed = agree(ranks.comm, local ? local->message : "");
  if (agreed && first < ranks.size) {
    agreed->rank = first; // the rank that failed, not the lowest rank of the test
    // and its host, which every rank of the test knows from the test's own agreement
    int len = static_cast<int>(local ? local->host.size() : 0);
    MPI_Bcast(&len, 1, MPI_INT, first, ranks.comm);
    std::string host(static_cast<size_t>(len), '\0');
    if (local)
      host = local->host;
    MPI_Bcast(host.data(), len, MPI_CHAR, first, ranks.comm);
    agreed->host = host;
  }
  return agreed;
}

} // namespace pio::harness
