// One test: communicators from its RankGroups, the file the harness opens for it, every
// repetition under the one timing method (thesis §3.2.1, Fig. 3.3), and its typed result.
#include "run/repetitions.hpp"

#include <chrono>

#include "guard/position.hpp"
#include "pio/io/backend.hpp"
#include "pio/mpi_handles.hpp"
#include "run/conditions_seen.hpp"
#include "run/idle_wait.hpp"
#include "run/measure.hpp"
#include "run/op_latency.hpp"
#include "run/page_cache.hpp"
#include "run/rank_groups.hpp"
#include "run/shape_agreement.hpp"
#include "run/steadiness.hpp"

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

/// The hints a test's file is opened with: the test's own, overridden by the block's Hint lines
/// (which include the global ones).
std::map<std::string, std::string> test_hints(const TestSpec &spec, const ModuleBlock &block) {
  std::map<std::string, std::string> hints = spec.hints;
  for (const auto &[k, v] : block.hints)
    hints[k] = v;
  return hints;
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
  c.scope = block.timing_scope;
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

/// One test's repetitions on the ranks taking part: what stays the same from one repetition to
/// the next, and each repetition's steps.
class TestRun {
public:
  TestRun(RunState &rs, const BlockRanks &ranks, Module &module, const ModuleContext &mctx,
          const ModulePlan &plan, const TestSpec &spec, int index, const GroupComms &c,
          TestResult &result);

  /// Every repetition (ModuleReps, or until ModuleReps auto stops), then the test's file kept
  /// or removed. Returns the agreed failure that stopped them.
  std::optional<Failure> run();
  /// The share of its recorded phases this rank waited for a CPU (-1: not measured).
  double wait_share() const { return wait_.share(); }

private:
  /// One repetition: the file opened, describe_test, every phase, the file closed,
  /// cleanup_test, and its figures reduced into the result. `run` counts every repetition run
  /// (the module's TestContext::rep); a warm-up (WarmUpReps) is run as the others and not
  /// recorded; `rep` numbers the recorded ones from 0 (and the warm-ups among themselves).
  std::optional<Failure> repetition(long run, long rep, bool warming);
  /// The harness opens the test's file for the repetition (timed into open_t) and hands the
  /// module its Interface; on the first repetition run it records the hints in effect.
  std::optional<Failure> open_file(long run, TestContext &tc, std::unique_ptr<io::OpenFile> &file,
                                   double &open_t);
  /// Every phase of the repetition under the unit loop, each read phase after its page-cache
  /// check and each write phase before its own (untimed).
  std::optional<Failure> run_phases(TestContext &tc, const TestSpec &running,
                                    LatencyRecorder &latencies, bool has_file,
                                    std::vector<PhaseTiming> &timings,
                                    std::vector<std::optional<CacheCheck>> &caches);
  /// The repetition's file closed (timed into close_t) and stamped at rest.
  std::optional<Failure> close_file(std::unique_ptr<io::OpenFile> &file, double &close_t);
  /// cleanup_test after a failure: the file closed first, the module's own error ignored.
  void abandon(TestContext &tc, std::unique_ptr<io::OpenFile> &file);
  /// The harness deletes what it created (after every rank has closed it), unless the module
  /// keeps the file for a later test (kept files go after cleanup_module) or a later block of
  /// its chain uses it (FilesFrom: it goes after the chain's last block).
  void release_file();

  RunState &rs_;
  Module &module_;
  const ModuleContext &mctx_;
  const ModulePlan &plan_;
  const ModuleBlock &block_;
  const TestSpec &spec_;
  const int index_;
  const GroupComms &c_;
  TestResult &result_;
  int trank_ = 0;             ///< this rank in c.all, the harness's numbering
  int grank_ = 0, gsize_ = 1; ///< this rank in its group, and the group's size
  Comm shifted_;              ///< the group renumbered by ReadShift (null without)
  MPI_Comm module_group_;     ///< what the module works on: shifted_, else the group
  int mrank_ = 0;             ///< this rank in module_group_
  std::string path_;          ///< this rank's file ("" without a file)
  bool owns_path_ = false;    ///< this rank creates (and later deletes) path_
  std::string where_;         ///< "test N (label)", for messages
  bool warming_ = false;      ///< the repetition running is a warm-up
  PhaseWait wait_;            ///< this rank's run-queue wait in the recorded phases
};

TestRun::TestRun(RunState &rs, const BlockRanks &ranks, Module &module, const ModuleContext &mctx,
                 const ModulePlan &plan, const TestSpec &spec, int index, const GroupComms &c,
                 TestResult &result)
    : rs_(rs), module_(module), mctx_(mctx), plan_(plan), block_(*plan.block), spec_(spec),
      index_(index), c_(c), result_(result),
      // ReadShift: the module works on its group renumbered (rank r is r + ReadShift), so that
      // its part of a shared file, and a file per process, are another rank's; the harness
      // keeps its own numbering (the shared file's owner, the agreements, the statistics).
      shifted_(shifted_ranks(c.group, plan.block->read_shift)),
      module_group_(shifted_.get() != MPI_COMM_NULL ? shifted_.get() : c.group),
      path_(test_path(mctx, spec, c)),
      where_("test " + std::to_string(index + 1) + " (" + spec.label + ")") {
  MPI_Comm_rank(c.all, &trank_);
  MPI_Comm_rank(c.group, &grank_);
  MPI_Comm_size(c.group, &gsize_);
  MPI_Comm_rank(module_group_, &mrank_);
  // Only the rank that creates a file decides whether it may (and later deletes it); a rank
  // shifted onto another's file per process leaves it to that rank.
  owns_path_ = (spec.file == FileUse::FilePerProcess && mctx.rank == ranks.rank) ||
               (spec.file == FileUse::Shared && grank_ == 0);
}

std::optional<Failure> TestRun::run() {
  if (trank_ == 0) {
    result_.file = path_;
    result_.hints_requested = test_hints(spec_, block_);
  }
  std::optional<Failure> failure;
  heartbeat_context("module " + mctx_.module_name + ", " + where_);
  const double started = MPI_Wtime();
  const long warm = block_.warm_up_reps; // WarmUpReps: run first, not recorded
  for (long k = 0; (block_.reps_auto || k < warm + block_.reps) && !failure; ++k) {
    const bool warming = k < warm;
    failure = repetition(k, warming ? k : k - warm, warming);
    if (!failure && !warming && block_.reps_auto &&
        auto_reps_done(c_.all, trank_, block_, result_, started))
      break;
  }
  release_file();
  return failure;
}

std::optional<Failure> TestRun::repetition(long run, long rep, bool warming) {
  warming_ = warming;
  TestSpec running = spec_;                     // every repetition starts from the declared test
  rs_.chains.cap_units(plan_, index_, running); // FilesFrom: no further than the source wrote
  TestContext tc(mctx_, running);
  tc.test_index = index_;
  tc.rep = static_cast<int>(run);
  tc.comm = module_group_;
  tc.all = c_.all;
  tc.rank = mrank_;
  tc.size = gsize_;
  tc.group = c_.group_index;
  tc.groups = c_.groups;
  tc.file_path = path_;
  // Before the file: an operation still in flight when a phase fails reports here until the
  // file's close completes it.
  LatencyRecorder latencies;
  std::unique_ptr<io::OpenFile> file;
  double open_t = 0, close_t = 0;
  const bool has_file = spec_.file != FileUse::None;
  if (has_file)
    if (auto failure = open_file(run, tc, file, open_t))
      return failure;
  const std::string at =
      where_ + (warming ? ", warm-up rep " : ", rep ") + std::to_string(rep) + ": ";
  heartbeat("describe_test");
  auto failure =
      agree(c_.all, capture(where_ + ": describe_test", [&] { module_.describe_test(tc); }));
  if (!failure && (failure = disagreement_on_shape(c_.all, running)))
    failure->message = at + failure->message;
  std::vector<PhaseTiming> timings;
  std::vector<std::optional<CacheCheck>> caches(running.phases.size());
  if (!failure && (failure = run_phases(tc, running, latencies, has_file, timings, caches)))
    failure->message = at + failure->message;
  if (failure) {
    abandon(tc, file);
    return failure;
  }
  if (has_file)
    if ((failure = close_file(file, close_t)))
      return failure;
  tc.io = nullptr;
  heartbeat("cleanup_test");
  if ((failure =
           agree(c_.all, capture(where_ + ": cleanup_test", [&] { module_.cleanup_test(tc); }))))
    return failure;
  std::vector<std::int64_t> units; // what a later block of the chain may read
  for (const PhaseTiming &t : timings)
    units.push_back(t.units);
  rs_.chains.record_units(plan_, index_, std::move(units));
  if (warming)
    return std::nullopt;
  Repetition r = reduce_repetition(c_.all, GroupPlace{c_.group_index, c_.groups}, timings, running,
                                   static_cast<int>(rep), open_t, close_t);
  if (trank_ == 0) {
    for (size_t k = 0; k < caches.size() && k < r.phases.size(); ++k)
      r.phases[k].cache = caches[k];
    result_.comm = running.comm; // with any set_ops_per_unit of this repetition
    result_.reps.push_back(std::move(r));
  }
  return std::nullopt;
}

std::optional<Failure> TestRun::open_file(long run, TestContext &tc,
                                          std::unique_ptr<io::OpenFile> &file, double &open_t) {
  std::string err;
  if (owns_path_)
    err = capture(where_ + ": TestFile", [&] { rs_.files->claim(path_); });
  if (auto failure = agree(c_.all, err))
    return failure;
  MPI_Barrier(c_.all);
  const double t0 = MPI_Wtime();
  heartbeat("MPI_File_open");
  const MPI_Comm open_comm = spec_.file == FileUse::Shared ? module_group_ : MPI_COMM_SELF;
  err = capture(where_ + ": open", [&] {
    file = mctx_.backend->open(open_comm, path_, spec_.amode, test_hints(spec_, block_));
  });
  const double mine = MPI_Wtime() - t0;
  MPI_Reduce(&mine, &open_t, 1, MPI_DOUBLE, MPI_MAX, 0, c_.all);
  if (auto failure = agree(c_.all, err))
    return failure;
  if (owns_path_) // the record names the file now (its device and inode)
    rs_.files->stamp(path_, true);
  tc.io = &file->io();
  if (run != 0)
    return std::nullopt;
  std::map<std::string, std::string> effect;
  err = capture(where_ + ": MPI_File_get_info", [&] { effect = file->hints_in_effect(); });
  if (trank_ == 0)
    result_.hints_in_effect = effect;
  return agree(c_.all, err);
}

std::optional<Failure> TestRun::run_phases(TestContext &tc, const TestSpec &running,
                                           LatencyRecorder &latencies, bool has_file,
                                           std::vector<PhaseTiming> &timings,
                                           std::vector<std::optional<CacheCheck>> &caches) {
  for (size_t k = 0; k < running.phases.size(); ++k) {
    // Before a read phase, untimed: CacheMode drop's flush and eviction, then the residency of
    // the files the nodes will read (docs/reference/timing.md, "The page cache").
    if (has_file && reads(running.phases[k].access)) {
      heartbeat("page cache");
      std::string err;
      const CacheCheck check = check_page_cache(c_.all, path_, block_.cache_mode == CacheMode::Drop,
                                                running.phases[k].access, err);
      if (auto failure = agree(c_.all, err.empty() ? err : where_ + ": page cache: " + err))
        return failure;
      caches[k] = check;
    }
    LoopControls controls = loop_controls(block_);
    controls.listener = rs_.listener;
    controls.latencies = &latencies;
    // A phase after a stonewalled one that stopped early reads no further than it wrote.
    if (k > 0 && timings.back().stonewalled && running.phases[k].time_budget_s <= 0)
      controls.unit_cap = stonewall_cap(timings.back().units, running.phases[k - 1].work_units,
                                        running.phases[k].work_units);
    latencies.clear();
    if (!warming_)
      wait_.start();
    timings.push_back(run_phase(module_, tc, c_.all, static_cast<int>(k), mctx_.sync_writes,
                                mctx_.collective, controls));
    if (!warming_)
      wait_.stop();
    if (timings.back().failure)
      return timings.back().failure;
    if (has_file)
      timings.back().latency = reduce_latencies(c_.all, latencies);
  }
  // After the phases, untimed: how much of what the writes wrote is still only in the page cache,
  // recorded on the last write phase. After all of them, not after each: a later phase may be the
  // test's own flush (b_eff_io's sync after its write loops), which the figure includes.
  size_t last_write = running.phases.size();
  for (size_t k = 0; k < running.phases.size(); ++k)
    if (running.phases[k].access == PhaseAccess::Write)
      last_write = k;
  if (!has_file || last_write == running.phases.size())
    return std::nullopt;
  heartbeat("page cache");
  std::string err;
  const CacheCheck check = check_page_cache(c_.all, path_, false, PhaseAccess::Write, err);
  if (auto failure = agree(c_.all, err.empty() ? err : where_ + ": page cache: " + err))
    return failure;
  caches[last_write] = check;
  return std::nullopt;
}

std::optional<Failure> TestRun::close_file(std::unique_ptr<io::OpenFile> &file, double &close_t) {
  MPI_Barrier(c_.all);
  const double t0 = MPI_Wtime();
  heartbeat("MPI_File_close");
  std::string err = capture(where_ + ": close", [&] { file->close(); });
  const double mine = MPI_Wtime() - t0;
  MPI_Reduce(&mine, &close_t, 1, MPI_DOUBLE, MPI_MAX, 0, c_.all);
  if (owns_path_ && err.empty()) // at rest: its size and modification time as left
    rs_.files->stamp(path_, false);
  return agree(c_.all, err);
}

void TestRun::abandon(TestContext &tc, std::unique_ptr<io::OpenFile> &file) {
  tc.io = nullptr;
  file.reset();
  capture("cleanup_test", [&] { module_.cleanup_test(tc); });
}

void TestRun::release_file() {
  MPI_Barrier(c_.all);
  if (spec_.file != FileUse::None && owns_path_ && !rs_.chains.keep_file(plan_, path_)) {
    if (spec_.keep_file)
      rs_.kept.insert(path_);
    else
      rs_.files->release(path_);
  }
  rs_.files->stamp_all(); // the files modules claimed, as this test left them
  MPI_Barrier(c_.all);
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
  result.timing_scope = plan.block->timing_scope;
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
  double own_wait = -1;
  if (c.all != MPI_COMM_NULL) {
    TestRun test(rs, ranks, module, mctx, plan, spec, index, c, result);
    local = test.run();
    own_wait = test.wait_share();
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
                                              rs.node.conditions.usable_cores, start, own_wait);
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
