// b_eff_io, the effective I/O bandwidth benchmark (b_eff_io paper §3.2, §5.1 with Table 2,
// §5.4, §6; Euro-Par b_eff_io paper §2-§4) as a pio-bench module (docs/reference/beff_io.md).
//
// Per partition, one harness test per access method and pattern type, in the paper's order
// (§5.1): every pattern type's initial write, then every type's rewrite, then every type's read.
// Each pattern type has its own file (TestFile.type<k>), which the harness opens and closes
// around each test, so a type's time per access method runs from open to close. A test's phases
// are its type's patterns; each write or rewrite loop ends with a one-unit MPI_File_sync phase.
//
// The parts: environment.* (memory, processes per node, shared pointers, free space), plan.*
// (partitions, tests, patterns, phases, scheduled times; MPI-free), hints.*, access.* (how each
// type places and moves its bytes), schedule.* (the running schedule, type 3/4 segments) and
// figure.* (b_eff_io from the typed results). This file only sequences them.
#include <algorithm>

#include "access.hpp"
#include "environment.hpp"
#include "figure.hpp"
#include "hints.hpp"
#include "pio/pio.hpp"
#include "plan.hpp"
#include "schedule.hpp"

namespace pio::beff_io {
namespace {

/// What the initial write left in one pattern type's file, for the rewrite and the read after
/// it (§5.1: rewrite and read repeat what the write measured).
struct TypeFile {
  std::vector<std::int64_t> write_units;   ///< per pattern: units of the last complete write
  std::vector<std::int64_t> rewrite_units; ///< per pattern: units of the last complete rewrite
  std::int64_t segment = 0;                ///< LSEG of types 3 and 4
  std::int64_t segment_used = 0;           ///< bytes before the fill pattern in each segment
  bool written = false;                    ///< the initial write completed
  bool rewritten = false;                  ///< the rewrite completed
};

class BeffIo : public Module {
public:
  std::vector<TestSpec> init_module(const ModuleContext &ctx) override;
  void describe_test(TestContext &test) override;
  void before_work_unit(UnitContext &unit) override;
  std::int64_t work_unit(UnitContext &unit) override;
  void after_work_unit(UnitContext &unit) override;
  void cleanup_test(TestContext &test) override;
  void cleanup_module(const ModuleContext &) override { std::vector<std::uint8_t>().swap(buffer_); }
  std::optional<Figure> figure(const ModuleResult &results) override {
    return make_figure(figure_tests_, facts_, results);
  }

private:
  void plan_initial_write(TestContext &test);
  void check_free_space(TestContext &test) const;
  void repeat_the_write(TestContext &test);
  void start_loop(size_t phase);
  void stamp_unit(const PhaseDesc &d, std::int64_t unit);
  void end_write_loop(size_t phase);
  void verify_unit(const PhaseDesc &d, std::int64_t unit);
  void one_unit_per_loop(TestContext &test);
  void require_capabilities(const ModuleContext &ctx, const PlanInput &in) const;
  const Pattern &pattern(const PhaseDesc &d) const { return cur_->patterns[d.pattern]; }
  /// The unit of the initial write that unit u of a rewrite or read repeats (they cycle
  /// through what the write wrote when their scheduled time outlasts it).
  std::int64_t slot(const PhaseDesc &d, std::int64_t u) const;

  // Module-wide.
  Plan plan_;
  std::vector<FigureTest> figure_tests_; ///< what each test is, for the figure
  FigureFacts facts_;                    ///< what the run observed, for the figure
  bool verify_ = false;
  std::int64_t fixed_units_ = 0;
  bool shared_pointers_ = true;
  /// partition -> pattern number -> units the initial write ran (types 0-2, for types 3-4).
  std::map<int, std::map<int, std::int64_t>> measured_;
  /// (partition, pattern type) -> the state of that type's file between its tests.
  std::map<std::pair<int, int>, TypeFile> files_;
  RunningSchedule schedule_; ///< rank 0: keeps each partition to T
  std::vector<std::uint8_t> buffer_;

  // The running test.
  const TestPlan *cur_ = nullptr;
  TypeFile *file_state_ = nullptr;
  TestContext *test_ = nullptr;
  TypeAccess access_;
  Placement at_;
  std::vector<std::int64_t> done_;  ///< per phase: calls run so far
  std::vector<std::int64_t> calls_; ///< per phase: MPI-IO calls per work unit
  Datatype filetype_;
};

std::vector<TestSpec> BeffIo::init_module(const ModuleContext &ctx) {
  const Settings &s = ctx.settings;
  PlanInput in;
  in.processes = ctx.size;
  // A share of the run's SuiteTime, unless the block sets ScheduledTime itself.
  in.scheduled_time = ctx.time_budget_s > 0 ? ctx.time_budget_s : s.real("ScheduledTime");
  if (s.has("Partitions"))
    in.partitions = s.integers("Partitions");
  in.types.clear();
  for (auto t : s.integers("PatternTypes"))
    in.types.insert(static_cast<int>(t));
  if (s.has("Patterns"))
    for (auto n : s.integers("Patterns"))
      in.numbers.insert(static_cast<int>(n));
  if (s.has("MPart"))
    in.mpart = s.size("MPart");
  in.fixed_units = fixed_units_ = s.integer("FixedUnits");
  in.definition = s.text("Definition") == "paper" ? Definition::Paper : Definition::Original;
  // ReadRewrite and RewriteTypes default to what the definition does: b_eff_io 2.1 repeats the
  // write's calls (count) and rewrites type 0 only; the paper definition is time-driven and
  // rewrites every type.
  in.repeat_exactly = s.has("ReadRewrite") ? s.text("ReadRewrite") == "count"
                                           : in.definition == Definition::Original;
  in.delete_on_close =
      s.has("DeleteOnClose") ? s.flag("DeleteOnClose") : in.definition == Definition::Original;
  in.rewrite_all =
      s.has("RewriteTypes") ? s.text("RewriteTypes") == "all" : in.definition == Definition::Paper;
  if (s.has("TypeHints"))
    in.type_hints = parse_type_hints(s.texts("TypeHints"));
  if (s.has("ChunkHints"))
    in.chunk_hints = parse_chunk_hints(s.texts("ChunkHints"));
  verify_ = untimed_verify_only(ctx.verify, ctx.module_name);

  const Environment env =
      probe_environment(ctx, partitions_of(in.processes, in.partitions), in.types.count(1) != 0);
  in.node_memory = env.node_memory;
  in.memory_source = env.memory_source;
  in.processes_per_node = env.processes_per_node;
  in.max_file_size = env.max_file_size;
  in.positioning = env.positioning;
  shared_pointers_ = env.shared_pointers;
  require_capabilities(ctx, in);

  plan_ = make_plan(in);
  facts_.scheduled_time_s = in.scheduled_time;
  facts_.definition = in.definition;
  facts_.partitions = static_cast<int>(plan_.partitions.size());
  facts_.read_rewrite_count = in.repeat_exactly;
  facts_.rewrite_all = in.rewrite_all;
  facts_.all_patterns = plan_.all_patterns;
  facts_.fixed_units = fixed_units_ != 0;
  if (in.types.count(1))
    facts_.positioning_type1 = env.positioning;
  std::vector<TestSpec> specs;
  for (const auto &t : plan_.tests) {
    facts_.mpart_by_definition = facts_.mpart_by_definition && t.mpart_by_definition;
    FigureTest ft{t.procs, t.type, t.method, {}};
    for (const auto &d : t.phases)
      ft.phases.push_back({t.patterns[d.pattern].number, t.patterns[d.pattern].chunk, d.sync});
    figure_tests_.push_back(std::move(ft));
    specs.push_back(t.spec);
  }
  return specs;
}

void BeffIo::require_capabilities(const ModuleContext &ctx, const PlanInput &in) const {
  // Before any I/O: every selected pattern type's access (§5.1, Table 2) on the block's backend.
  for (int type : in.types) {
    const TypeAccess access = type_access(type, shared_pointers_);
    const std::string what = "beff_io pattern type " + std::to_string(type);
    if (type == 1 && !ctx.capabilities.has(io::Capability::SharedPointers)) {
      // Type 1 falls back to the strided view without shared pointers: say both.
      std::string lacks;
      for (io::Capability c : access_needs(access))
        if (!ctx.capabilities.has(c))
          lacks += (lacks.empty() ? "" : ", ") + std::string(io::to_string(c));
      if (!lacks.empty())
        throw DirectiveError("Interface",
                             what +
                                 " (shared) needs shared file pointers (capability "
                                 "shared_pointers), which Interface " +
                                 ctx.interface +
                                 " does not offer, or in their place (its "
                                 "fallback) " +
                                 lacks + ", which it lacks too",
                             "choose an Interface with shared_pointers for this block (pio-harness "
                             "--list-interfaces), or leave type 1 out (PatternTypes 2 3)");
    }
    ctx.require(what, access_needs(access));
  }
  if (!in.type_hints.empty() || !in.chunk_hints.empty())
    ctx.require("beff_io's TypeHints and ChunkHints (MPI_File_set_info)", {io::Capability::Hints});
}

void BeffIo::check_free_space(TestContext &test) const {
  // A full file system must end the write as a test failure on every rank, before any I/O:
  // ROMIO aborts the process when it cannot create the shared file pointer's file
  // (MPI_File_seek_shared), and the pattern types' files exist together until their reads.
  // The write is bounded by its MaxFileSize share, so compare that with the free space.
  const std::int64_t most = most_bytes_written(*cur_);
  std::int64_t avail = -1;
  if (test.rank == 0)
    avail = free_space_of(test.file_path);
  MPI_Bcast(&avail, 1, MPI_INT64_T, 0, test.comm);
  const std::int64_t slack = kMiB; // ROMIO's shared file pointer file, directory blocks
  if (most > 0 && avail >= 0 && avail < most + slack)
    throw Error("the write of pattern type " + std::to_string(cur_->type) + " on " +
                    std::to_string(cur_->procs) + " processes may write " + std::to_string(most) +
                    " bytes, but only " + std::to_string(avail) +
                    " bytes are free in the "
                    "directory of " +
                    test.file_path,
                std::string("free space there, or lower MaxFileSize (") + kMaxFileSizeDefault +
                    "); the files of the earlier pattern types are kept until their reads");
}

void BeffIo::plan_initial_write(TestContext &test) {
  // A new initial write: whatever an earlier repetition left is replaced.
  TypeFile &f = *file_state_;
  f = TypeFile{};
  f.write_units.assign(cur_->patterns.size(), 1);
  f.rewrite_units.assign(cur_->patterns.size(), 0);
  for (size_t k = 0; k < cur_->phases.size(); ++k) {
    const PhaseDesc &d = cur_->phases[k];
    if (!d.sync && pattern(d).U > 0 && fixed_units_ > 0) {
      const std::int64_t cap = cur_->cap_units[d.pattern];
      test.set_work_units(k, cap > 0 ? std::min(fixed_units_, cap) : fixed_units_);
    }
  }
  if (cur_->type < 3)
    return;
  // §5.1, §5.4: types 3 and 4 are size-driven, from what types 0-2 wrote in this partition,
  // within their share of MaxFileSize.
  const Segment seg = size_segment(cur_->patterns, table2(cur_->mpart), measured_[cur_->procs],
                                   fixed_units_, plan_.definition, cur_->cap_units);
  f.write_units = seg.units;
  f.segment = seg.size;
  f.segment_used = seg.used;
  if (test.rank == 0)
    facts_.segment_size[cur_->procs] = seg.size;
  for (size_t k = 0; k < cur_->phases.size(); ++k) {
    const auto &d = cur_->phases[k];
    test.set_time_budget(k, 0);
    test.set_work_units(k, d.sync ? 1 : f.write_units[d.pattern]);
  }
}

void BeffIo::repeat_the_write(TestContext &test) {
  TypeFile &f = *file_state_;
  const std::string what = "pattern type " + std::to_string(cur_->type) + " on " +
                           std::to_string(cur_->procs) + " processes";
  if (!f.written)
    throw Error("the initial write of " + what + " did not complete, so there is nothing to " +
                    method_name(cur_->method),
                "see the error of that type's write test above");
  if (cur_->method == Method::Read && verify_ && plan_.rewritten_types.count(cur_->type) &&
      !f.rewritten)
    throw Error("the rewrite of " + what +
                    " did not complete, so the data read back cannot be verified",
                "see the error of that type's rewrite test above");
  // Rewrite and read repeat each pattern of the initial write: time-driven ones (the plan gave
  // them the pattern's scheduled time) cycle through the units the write wrote if the time
  // outlasts them (slot()); ReadRewrite count and the size-driven types 3, 4 repeat exactly
  // the write's units.
  for (size_t k = 0; k < cur_->phases.size(); ++k)
    if (!cur_->phases[k].sync)
      test.set_work_units(k, f.write_units[cur_->phases[k].pattern]);
  if (cur_->method == Method::Rewrite) {
    f.rewritten = false;
    f.rewrite_units.assign(cur_->patterns.size(), 0);
  }
}

void BeffIo::one_unit_per_loop(TestContext &test) {
  // b_eff_io 2.1 times a count-driven loop (rewrite, read, types 3 and 4) as one stretch from a
  // barrier to the barrier after its last call, with no synchronisation between the calls. So
  // by Definition original such a loop is one work unit making all its calls (the harness's
  // barriers then fall where 2.1's do). Verify keeps one call per unit: it checks each call.
  if (plan_.definition != Definition::Original || verify_)
    return;
  for (size_t k = 0; k < cur_->phases.size(); ++k) {
    const Phase &ph = test.spec().phases[k];
    if (cur_->phases[k].sync || ph.time_budget_s > 0 || ph.work_units <= 1)
      continue;
    calls_[k] = ph.work_units;
    test.set_work_units(k, 1);
    if (test.rank == 0)
      facts_.calls_per_unit[{test.test_index, static_cast<int>(k)}] = calls_[k];
  }
}

void BeffIo::describe_test(TestContext &test) {
  cur_ = &plan_.tests.at(static_cast<size_t>(test.test_index));
  file_state_ = &files_[{cur_->procs, cur_->type}];
  test_ = &test;
  if (test.rank == 0)
    schedule_.start(cur_->procs, MPI_Wtime());
  done_.assign(cur_->phases.size(), 0);
  calls_.assign(cur_->phases.size(), 1);
  if (cur_->method == Method::Write) {
    check_free_space(test);
    plan_initial_write(test);
  } else {
    repeat_the_write(test);
  }
  one_unit_per_loop(test);
  access_ = type_access(cur_->type, shared_pointers_);
  at_ = Placement{
      cur_->type, test.rank, test.size, 0, file_state_->segment, file_state_->segment_used};

  std::int64_t largest = kMiB; // the fill pattern writes less than 1 MB (LSEG is rounded up)
  for (const auto &p : cur_->patterns)
    largest = std::max(largest, p.L);
  // One buffer for the whole module, grown when needed: M_PART can be hundreds of MB, and
  // allocating and filling it for each of the 15 tests of a partition would eat into T.
  if (buffer_.size() < static_cast<size_t>(largest))
    buffer_.assign(static_cast<size_t>(largest), verify_ ? 0 : 0x5A);
  if (access_.call == Call::Ordered && test.module->capabilities.has(io::Capability::FileViews))
    set_byte_view(*test.io);
}

void BeffIo::start_loop(size_t k) {
  const PhaseDesc &d = cur_->phases[k];
  // Only the root's budget matters: it alone decides when a loop ends.
  if (test_->rank == 0) {
    const double budget = test_->spec().phases[k].time_budget_s;
    const double now = MPI_Wtime();
    // The paper definition's running schedule takes the partition's lag off the loop;
    // b_eff_io 2.1 gives every loop its full share.
    const double running = schedule_.next_loop(cur_->procs, d.nominal, budget, now);
    if (budget > 0 && plan_.catch_up)
      test_->set_time_budget(k, running);
  }
  at_.base =
      pattern_base(cur_->type, test_->size, cur_->patterns, file_state_->write_units, d.pattern);
  auto hints = cur_->chunk_hints.find(pattern(d).chunk);
  if (hints != cur_->chunk_hints.end())
    test_->io->set_info(hints->second);
  start_pattern(*test_->io, access_, at_, pattern(d), filetype_);
}

void BeffIo::stamp_unit(const PhaseDesc &d, std::int64_t unit) {
  if (cur_->method == Method::Read) {
    std::fill_n(buffer_.begin(), unit_bytes(at_, pattern(d)), 0); // no stale stamp can pass
    return;
  }
  // Verify: every byte is stamp(rank, file offset, generation); the rewrite is generation 1.
  const int gen = cur_->method == Method::Write ? 0 : 1;
  for_each_piece(at_, pattern(d), slot(d, unit),
                 [&](std::int64_t buf, std::int64_t off, std::int64_t len) {
                   stamp_fill(buffer_.data() + buf, len, at_.rank, off, gen);
                 });
}

void BeffIo::before_work_unit(UnitContext &unit) {
  const PhaseDesc &d = cur_->phases[static_cast<size_t>(unit.phase)];
  if (d.sync)
    return;
  if (unit.unit == 0)
    start_loop(static_cast<size_t>(unit.phase));
  else if (slot(d, unit.unit) == 0)
    rewind_pattern(*test_->io, access_, at_, pattern(d)); // a rewrite or read starts over
  if (verify_)
    stamp_unit(d, unit.unit);
}

std::int64_t BeffIo::work_unit(UnitContext &unit) {
  const PhaseDesc &d = cur_->phases[static_cast<size_t>(unit.phase)];
  if (d.sync) {
    // §5.1: the write loop of each pattern ends with MPI_File_sync (the backend's flush).
    test_->io->sync();
    return 0;
  }
  const std::int64_t bytes = unit_bytes(at_, pattern(d));
  const std::int64_t calls = calls_[static_cast<size_t>(unit.phase)];
  const io::Transfer t =
      unit_transfer(access_, cur_->method != Method::Read, buffer_.data(), bytes);
  for (std::int64_t c = 0; c < calls; ++c)
    transfer(*test_->io, t, pattern(d).number);
  return bytes * calls;
}

void BeffIo::end_write_loop(size_t k) {
  // The write loop of this pattern is over (the root's schedule ended it): the patterns after
  // it start where it ended, and the rewrite and the read repeat it (§5.1).
  const PhaseDesc &d = cur_->phases[k];
  TypeFile &f = *file_state_;
  const size_t io_phase = k - 1;
  const std::int64_t n = done_[io_phase];
  f.write_units[d.pattern] = n;
  if (cur_->type <= 2 && test_->rep == 0)
    measured_[cur_->procs][pattern(d).number] = n;
  const Phase &ran = test_->spec().phases[io_phase];
  if (ran.max_work_units > 0 && n >= ran.max_work_units && test_->rank == 0)
    facts_.capped.push_back(ran.label + " (P" + std::to_string(cur_->procs) + ")");
  f.written = k + 1 == cur_->phases.size();
}

void BeffIo::verify_unit(const PhaseDesc &d, std::int64_t unit) {
  const TypeFile &f = *file_state_;
  const std::int64_t u = slot(d, unit);
  for_each_piece(at_, pattern(d), u, [&](std::int64_t buf, std::int64_t off, std::int64_t len) {
    // A time-driven rewrite may have ended before the last unit the write wrote.
    const int gen = u < f.rewrite_units[d.pattern] ? 1 : 0;
    const std::int64_t bad = stamp_mismatch(buffer_.data() + buf, len, at_.rank, off, gen);
    if (bad >= 0)
      throw Error("verify: pattern " + std::to_string(pattern(d).number) + " (type " +
                      std::to_string(cur_->type) + "), rank " + std::to_string(at_.rank) +
                      ": byte at file offset " + std::to_string(off + bad) +
                      " is not what the rewrite (or the initial write) wrote there",
                  "the file system returned wrong or stale data; rerun, and check the file "
                  "system's consistency semantics and the hints in effect");
  });
}

void BeffIo::after_work_unit(UnitContext &unit) {
  const auto k = static_cast<size_t>(unit.phase);
  const PhaseDesc &d = cur_->phases[k];
  TypeFile &f = *file_state_;
  done_[k] = (unit.unit + 1) * calls_[k];
  if (d.sync && cur_->method == Method::Write) {
    end_write_loop(k);
  } else if (d.sync && cur_->method == Method::Rewrite) {
    f.rewrite_units[d.pattern] = std::min(done_[k - 1], f.write_units[d.pattern]);
    f.rewritten = k + 1 == cur_->phases.size();
  } else if (!d.sync && verify_ && cur_->method == Method::Read) {
    verify_unit(d, unit.unit);
  }
}

void BeffIo::cleanup_test(TestContext &test) {
  filetype_.reset();
  if (cur_ && test.rank == 0 && schedule_.started(cur_->procs))
    facts_.wall_time_s[cur_->procs] = schedule_.elapsed(cur_->procs, MPI_Wtime());
}

std::int64_t BeffIo::slot(const PhaseDesc &d, std::int64_t u) const {
  if (cur_->method == Method::Write)
    return u;
  return u % std::max<std::int64_t>(1, file_state_->write_units[d.pattern]);
}

/// The module's directives, with the limits the harness enforces.
std::vector<DirectiveSpec> directives() {
  using T = DirectiveType;
  return {
      DirectiveSpec{"ScheduledTime", T::Real, "900",
                    "T in seconds for one partition (the paper's rule needs T >= 900, §5.1)"}
          .between(0.001, 1e6),
      DirectiveSpec{"Partitions", T::Integers, "",
                    "process counts to measure, e.g. 1 2 4 (default: all processes); system = "
                    "maximum"}
          .at_least(1),
      DirectiveSpec{"PatternTypes", T::Integers, "0 1 2 3 4",
                    "pattern types to run, 0 (scatter) to 4 (segmented collective); a subset does "
                    "not meet the paper's rule"}
          .between(0, kPatternTypes - 1),
      DirectiveSpec{"Patterns", T::Integers, "",
                    "Table 2 pattern numbers to run, 0-42 (default: all; a subset does not meet "
                    "the rule)"}
          .between(0, 42),
      DirectiveSpec{"MemoryPerNode", T::Size, "",
                    "memory of one node for M_PART (default: detected)"}
          .at_least(1),
      DirectiveSpec{"MPart", T::Size, "",
                    "override M_PART = max(2 MB, memory per process / 128) (tests; breaks the "
                    "rule)"}
          .at_least(1),
      DirectiveSpec{"SharedPointers",
                    T::Text,
                    "auto",
                    "type 1 positioning: auto (shared pointers, else fall back), on (required), "
                    "off (force the individual-pointer fallback)",
                    {"auto", "on", "off"}},
      DirectiveSpec{"Definition",
                    T::Text,
                    "original",
                    "original (b_eff_io 2.1: its schedule, segment sizes and geometric-mean "
                    "figure in MB/s) or paper (T/3 per access method, 25/25/50 % weights, MiB/s)",
                    {"original", "paper"}},
      DirectiveSpec{"ReadRewrite",
                    T::Text,
                    "",
                    "rewrite and read loops: count (exactly the units the write wrote; default "
                    "of Definition original) or time (the pattern's scheduled time, cycling "
                    "through the units the write wrote; default of Definition paper)",
                    {"time", "count"}},
      DirectiveSpec{"RewriteTypes",
                    T::Text,
                    "",
                    "pattern types rewritten: 0 (b_eff_io 2.1's default) or all (its -rewrite; "
                    "default of Definition paper)",
                    {"0", "all"}},
      DirectiveSpec{"DeleteOnClose", T::Flag, "",
                    "the read opens each file with MPI_MODE_DELETE_ON_CLOSE, so its close time "
                    "includes the removal (b_eff_io 2.1 without -keep; default of Definition "
                    "original; off keeps the files to the end of the test)"},
      DirectiveSpec{"FixedUnits", T::Integer, "0",
                    "run every write loop this many units instead of the time-driven schedule "
                    "(tests)"}
          .at_least(0),
      DirectiveSpec{"MaxFileSize", T::Size, "",
                    std::string("cap on all pattern types' files together, shared by the "
                                "patterns by U (") +
                        kMaxFileSizeDefault + ")"},
      DirectiveSpec{"TypeHints", T::Texts, "",
                    "MPI-IO hints per pattern type at open: TYPE:key=value ... (TYPE 0-4 or *)"},
      DirectiveSpec{"ChunkHints", T::Texts, "",
                    "hints per pattern type and chunk via MPI_File_set_info: "
                    "TYPE:CHUNK:key=value ..."},
  };
}

ModuleInfo beff_io_info() {
  ModuleInfo m("beff_io", make_module<BeffIo>);
  m.title = "b_eff_io";
  m.family = ModuleFamily::BeffIo;
  m.summary = "effective I/O bandwidth: pattern types 0-4 of Table 2, write / rewrite / read, "
              "time-driven (scheduled time T), the b_eff_io figure";
  m.reference = "b_eff_io paper (Koniges, Rabenseifner et al.) §5.1, Table 2, §5.4, §6; "
                "Euro-Par b_eff_io paper (Rabenseifner & Koniges) §4";
  m.directives = directives();
  m.time_directive = "ScheduledTime";
  m.runs_once = true; // b_eff_io 2.1 runs its schedule once: a repeated write changes the file
                      // its rewrite and read tests check
  return m;
}

} // namespace
} // namespace pio::beff_io

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::beff_io::beff_io_info()})
