// The temporal-mode engine (thesis §3.4.2) over a spatial Geometry (thesis §3.4.1).
// Work units carry only the I/O calls (and the flush when SyncWrites asks, thesis §3.3.2);
// stamping, views, datatypes, the first access of re-read/re-write and verification all happen
// in the untimed methods, except under Verify timed: then the unit stamps what it writes and
// checks what it reads, as IOR -R does inside its timed loop (docs/reference/timing.md).
#include "pio/patterns/pattern_module.hpp"

#include <algorithm>
#include <exception>

#include "extent_order.hpp"
#include "layout_trace.hpp"
#include "pattern_run.hpp"
#include "pio/patterns/byte_types.hpp"
#include "pio/stamp.hpp"
#include "write_overlap.hpp"

namespace pio::patterns {

std::vector<DirectiveSpec> pattern_directives(const std::string &work_units,
                                              const std::string &work_units_help) {
  return {
      temporal_mode_directive(),
      DirectiveSpec{"WorkUnits", DirectiveType::Integer, work_units, work_units_help}.at_least(1),
      DirectiveSpec{
          "BytesPerRank", DirectiveType::Size, "",
          "instead of WorkUnits: each test runs as many work units as move this many "
          "bytes per rank at its buffer size (rounded up), so that every buffer size of "
          "a sweep moves the same volume (docs/reference/configuration.md, \"BytesPerRank\")"}
          .at_least(1),
      DirectiveSpec{"HeaderOffset", DirectiveType::Size, "0",
                    "bytes skipped at the start of the file before the pattern begins"}
          .at_least(0),
      DirectiveSpec{"ReorderTasks", DirectiveType::Integer, "0",
                    "read modes: rank r reads the bytes rank (r + ReorderTasks) mod P wrote, not "
                    "its own (IOR -C; 0 = off)"}
          .at_least(0),
      DirectiveSpec{"LayoutTrace", DirectiveType::Text, "",
                    "write every rank's file extents per work unit of each test to this file "
                    "(JSON lines, rank 0; draw with pio-plot layout)"}};
}

TestSpec PatternModule::pattern_spec(const std::string &label, std::int64_t buffer_size) const {
  TestSpec t;
  t.label = label;
  t.buffer_size = buffer_size;
  t.header_offset = header_offset_;
  t.phases.at(0).work_units = work_units(buffer_size);
  t.params["buffer_size"] = std::to_string(buffer_size);
  if (bytes_per_rank_ > 0)
    t.params["bytes_per_rank"] = std::to_string(bytes_per_rank_);
  return t;
}

std::int64_t PatternModule::work_units(std::int64_t unit_bytes) const {
  if (bytes_per_rank_ <= 0 || unit_bytes <= 0)
    return work_units_;
  return bytes_per_rank_ / unit_bytes + (bytes_per_rank_ % unit_bytes != 0 ? 1 : 0);
}

std::vector<TestSpec> PatternModule::init_module(const ModuleContext &ctx) {
  mode_ = parse_temporal_mode(ctx.settings.text("Mode"));
  // Optional for a pattern whose default is its own (replay: every traced operation).
  work_units_ = ctx.settings.has("WorkUnits") ? ctx.settings.integer("WorkUnits") : 1;
  bytes_per_rank_ = ctx.settings.has("BytesPerRank") ? ctx.settings.size("BytesPerRank") : 0;
  header_offset_ = ctx.settings.size("HeaderOffset");
  reorder_tasks_ = ctx.settings.has("ReorderTasks") ? ctx.settings.integer("ReorderTasks") : 0;
  layout_trace_ = ctx.settings.has("LayoutTrace") ? ctx.settings.text("LayoutTrace") : "";
  tests_ = make_tests(ctx);
  std::vector<TestSpec> tests;
  for (auto &p : tests_) {
    if (!p.geometry)
      throw Error("pattern test '" + p.spec.label + "' has no geometry",
                  "return a Geometry with every PatternTest from make_tests");
    p.spec.params["mode"] = temporal_mode_name(mode_);
    p.spec.phases.at(0).access = phase_access(mode_); // the harness's page-cache checks
    p.spec.params["header_offset"] = std::to_string(p.spec.header_offset);
    p.spec.params["work_units"] = std::to_string(p.spec.phases.at(0).work_units);
    p.spec.params["reorder_tasks"] = std::to_string(reorder_tasks_);
    if (p.inherited_geometry)
      p.spec.chain_cap = ChainCap::FileSize;
    tests.push_back(p.spec);
  }
  check_no_shared_writes(ctx);
  check_viewable(ctx);
  if (ctx.shared.made_earlier && reorder_tasks_ > 0)
    throw DirectiveError("ReorderTasks",
                         "ReorderTasks with FilesFrom: each rank reads the extents it wrote in the "
                         "earlier block, so no task is reordered",
                         "remove ReorderTasks from this block, or FilesFrom (the block then "
                         "prepares its file, each rank writing what another reads)");
  if (!layout_trace_.empty() && ctx.rank == 0 && !ctx.validate_only)
    start_layout_trace(layout_trace_);
  return tests;
}

namespace {

bool writes(TemporalMode m) {
  return m == TemporalMode::Write || m == TemporalMode::ReWrite ||
         m == TemporalMode::ReadModifyWrite;
}

} // namespace

void PatternModule::check_no_shared_writes(const ModuleContext &ctx) const {
  // Rank 0 alone (the harness agrees a failure on one rank), in the pre-flight check too: before
  // any file is opened. A file per process, rank groups or a read mode share nothing written.
  if (ctx.rank != 0 || !writes(mode_))
    return;
  for (const auto &p : tests_) {
    if (p.spec.file == FileUse::FilePerProcess || !p.spec.groups.color.empty())
      continue;
    const auto overlap = find_rank_overlap(*p.geometry, ctx.size, p.spec.phases.at(0).work_units);
    if (overlap)
      throw Error("the geometry of module " + ctx.module_name + ", test '" + p.spec.label +
                      "', has two ranks write the same bytes (Mode " + temporal_mode_name(mode_) +
                      "): " + *overlap +
                      "; nothing was written (checked before any I/O; without this check Verify "
                      "would report it as wrong data)",
                  "make the Geometry's extents() give every rank its own bytes in each work "
                  "unit; ranks may share bytes only in Mode read and re-read");
  }
}

void PatternModule::check_viewable(const ModuleContext &ctx) const {
  // Rank 0 alone, before any file is opened, as check_no_shared_writes. Only a file view needs
  // the extents in file order; the engine sorts those it can (extent_order.hpp).
  if (ctx.rank != 0 || !ctx.use_file_view || !ctx.capabilities.has(io::Capability::FileViews))
    return;
  for (const auto &p : tests_) {
    // The test's ranks: all of the block's, or the first group's (each group runs the geometry).
    const auto &color = p.spec.groups.color;
    const int ranks =
        color.empty() ? ctx.size : static_cast<int>(std::count(color.begin(), color.end(), 0));
    const auto bad = find_unviewable_unit(*p.geometry, ranks, p.spec.phases.at(0).work_units,
                                          kOverlapCheckExtents);
    if (bad)
      throw Error("the geometry of module " + ctx.module_name + ", test '" + p.spec.label +
                      "', cannot go through a file view (FileView on): " + *bad +
                      "; nothing was written (checked before any I/O)",
                  "make the Geometry's extents() ascend in file order without overlap, or run "
                  "the block with FileView off (one call per extent, in the order given)");
  }
}

void PatternModule::describe_test(TestContext &test) {
  run_ = std::make_shared<Run>();
  Run &r = *run_;
  const PatternTest &declared = tests_.at(static_cast<size_t>(test.test_index));
  r.geometry = test.rep > 0 && declared.repetition_geometry ? declared.repetition_geometry(test.rep)
                                                            : declared.geometry;
  r.mode = mode_;
  r.io = test.io;
  // Under FilesFrom a test with units of its own draws them from the file as found.
  if (test.module->shared.made_earlier && declared.inherited_geometry && r.io)
    r.geometry = declared.inherited_geometry(r.io->size());
  r.comm = test.comm;
  r.rank = test.rank;
  r.where = "module " + test.module->module_name + ", test '" + test.spec().label + "'";
  r.verify = test.module->verify;
  r.stamp_for_later = test.module->shared.used_later;
  r.views = test.module->capabilities.has(io::Capability::FileViews);
  r.use_view = test.module->use_file_view && r.views; // FileView needs a backend with views
  r.units = test.spec().phases.at(0).work_units;
  r.size = test.size;
  // Units may overlap (docs/reference/timing.md, "Queue depth") where none needs another done: in
  // write every transfer's bytes are a function of their offset (the stamp), so two in flight over
  // the same bytes write the same bytes; in read none changes the file. A backend with file
  // views places a unit by its view, which the next unit's replaces: no overlap there.
  r.overlap_depth =
      r.io && !r.views && (mode_ == TemporalMode::Write || mode_ == TemporalMode::Read)
          ? r.io->queue_depth()
          : 0;
  // Task reordering (IOR -C): only where a read reads what another rank of the same file wrote.
  const bool shared_file = test.spec().file != FileUse::FilePerProcess;
  r.shift = needs_prepared_file(mode_) && shared_file
                ? static_cast<int>(reorder_tasks_ % std::max(1, test.size))
                : 0;
  if (test.spec().phases.size() != 1 || test.spec().phases[0].time_budget_s > 0)
    throw Error("pattern modules run one count-driven phase per test",
                "remove time budgets from this pattern's tests");

  // Calls per unit every rank makes in no-view collective mode: the maximum over ranks. And the
  // bytes the file's data spans (for the interface's shape): the end of the last extent. Read
  // from the plan of the units' extents, batch by batch: the whole phase's stays when it fits.
  std::int64_t pieces = 0, end = test.spec().header_offset;
  for (std::int64_t u = 0; u < r.units; u = r.plan.end()) {
    r.plan.fill(*r.geometry, r.rank, u, r.units);
    for (std::int64_t k = u; k < r.plan.end(); ++k) {
      pieces = std::max<std::int64_t>(pieces, r.plan.end(k) - r.plan.begin(k));
      for (const Extent *e = r.plan.begin(k); e != r.plan.end(k); ++e)
        end = std::max(end, e->offset + e->length);
    }
  }
  mpi_check(MPI_Allreduce(&pieces, &r.max_pieces, 1, MPI_INT64_T, MPI_MAX, r.comm),
            "MPI_Allreduce");
  // A shared file spans every rank's extents; a file per process only its rank's own.
  std::int64_t span = end;
  if (shared_file)
    mpi_check(MPI_Allreduce(&end, &span, 1, MPI_INT64_T, MPI_MAX, r.comm), "MPI_Allreduce");
  r.io->shape(span);

  // Read-type modes need the data in the file first (thesis §3.3.2: init "can set up any
  // files for read tests"); written untimed, generation 0, then synced for all ranks. This rank
  // writes, with its own stamps, what `reader` will read: itself, or with ReorderTasks the rank
  // `shift` below it, so that no rank reads bytes it wrote itself. Under FilesFrom an earlier
  // block wrote them (each rank its own extents, with its own stamps, generation 0).
  if (needs_prepared_file(mode_) && !test.module->shared.made_earlier) {
    // A rank whose write fails still makes the collective sync and barrier below, then throws:
    // the harness agrees on the failure instead of the other ranks waiting in the barrier (a
    // GlusterFS client with stale caches fails one rank's write alone: docs/guides/fslab.md).
    std::exception_ptr failed;
    const auto attempt = [&failed](auto &&step) {
      try {
        step();
      } catch (...) {
        if (!failed)
          failed = std::current_exception();
      }
    };
    const int reader = (r.rank - r.shift + r.size) % r.size;
    attempt([&] { r.prepare_file(reader); });
    attempt([&] { r.io->sync(); });
    attempt([&] { mpi_check(MPI_Barrier(r.comm), "MPI_Barrier"); });
    attempt([&] { r.io->sync(); });
    if (failed)
      std::rethrow_exception(failed);
  }

  // Last, after every collective call here: a failure on rank 0 alone is agreed by the harness.
  if (!layout_trace_.empty() && test.rank == 0 && test.group == 0 &&
      (test.rep == 0 || declared.repetition_geometry))
    append_layout_trace(layout_trace_, test, *r.geometry, mode_, r.shift);
}

void PatternModule::before_work_unit(UnitContext &unit) {
  Run &r = *run_;
  r.make_slots(unit);
  r.prepare_unit(unit.unit);
  const bool untimed = r.verify == VerifyMode::Untimed;
  switch (r.mode) {
  case TemporalMode::Write:
    // Untimed: to check it after the write, or for a later block that reads it (FilesFrom).
    if (untimed || (r.verify == VerifyMode::Off && r.stamp_for_later))
      r.stamp(0);
    break;
  case TemporalMode::ReWrite:
    // The first write is untimed; only the second is (thesis §3.4.2).
    r.stamp(0);
    r.write(unit.collective);
    if (unit.flush)
      r.io->sync();
    if (untimed)
      r.stamp(1);
    break;
  case TemporalMode::ReRead:
    // The first read is untimed; only the second is (thesis §3.4.2).
    r.read(unit.collective);
    if (r.verify != VerifyMode::Off) // the timed read must bring its own bytes to be checked
      std::fill(r.stream.begin(), r.stream.end(), 0),
          std::fill(r.buffer.begin(), r.buffer.end(), 0);
    break;
  case TemporalMode::Read:
  case TemporalMode::ReadModifyWrite:
    break;
  }
  r.wait_for_release(unit.unit);
}

std::int64_t PatternModule::work_unit(UnitContext &unit) {
  Run &r = *run_;
  const bool timed = r.verify == VerifyMode::Timed;
  switch (r.mode) {
  case TemporalMode::Write:
  case TemporalMode::ReWrite:
    if (timed) // IOR's update_write_memory_pattern before each write; no read-back (IOR -w)
      r.stamp(r.mode == TemporalMode::ReWrite ? 1 : 0);
    if (r.overlaps(unit))
      return r.overlapped(true, unit);
    r.write(unit.collective);
    if (unit.flush)
      r.io->sync();
    return r.bytes;
  case TemporalMode::Read:
  case TemporalMode::ReRead:
    if (r.overlaps(unit)) // checked as each transfer finishes
      return r.overlapped(false, unit);
    r.read(unit.collective);
    if (timed) // IOR -R: READCHECK compares the transfer right after the read, timed
      r.check_read();
    return r.bytes;
  case TemporalMode::ReadModifyWrite: {
    r.read(unit.collective);
    // A bad byte fails the test after the write: a collective write must not miss this rank.
    std::exception_ptr bad;
    if (timed)
      try {
        r.check_read();
      } catch (const Error &) {
        bad = std::current_exception();
      }
    r.modify();
    r.write(unit.collective);
    if (unit.flush)
      r.io->sync();
    if (bad)
      std::rethrow_exception(bad);
    return 2 * r.bytes; // both directions move data (thesis §4.2.2)
  }
  }
  return 0;
}

void PatternModule::after_work_unit(UnitContext &) {
  Run &r = *run_;
  if (r.verify != VerifyMode::Untimed)
    return;                   // off, or timed: the unit checked what it read
  if (!r.in_flight.empty()) { // overlapping: the units whose transfers finished, at their offsets
    r.check_finished();
    return;
  }
  switch (r.mode) {
  case TemporalMode::Write:
    r.check(r.read_back(), 0, 0, "written data read back");
    break;
  case TemporalMode::ReWrite:
    r.check(r.read_back(), 1, 0, "re-written data read back");
    break;
  case TemporalMode::Read:
  case TemporalMode::ReRead:
    r.check_read();
    break;
  case TemporalMode::ReadModifyWrite:
    r.check(r.read_back(), 0, kModifyMask, "modified data read back");
    break;
  }
}

void PatternModule::cleanup_test(TestContext &) { run_.reset(); }

} // namespace pio::patterns
