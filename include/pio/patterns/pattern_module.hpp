#pragma once
/// The pattern engine (pio::patterns, installed with pio-bench): a pio::Module that runs a
/// Geometry in any of the five temporal modes (thesis §3.4.2), independent or collective, with or
/// without a file view, with Verify. A spatial pattern module derives from PatternModule and
/// supplies only its directives, its tests and one Geometry per test.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pio/module.hpp"
#include "pio/patterns/geometry.hpp"
#include "pio/patterns/temporal_mode.hpp"

namespace pio::patterns {

/// One test of a pattern: what the harness runs, and the layout the engine runs it with.
struct PatternTest {
  /// A test whose layout is `geometry` in every repetition.
  PatternTest(TestSpec spec, std::shared_ptr<const Geometry> geometry)
      : spec(std::move(spec)), geometry(std::move(geometry)) {}

  TestSpec spec;                            ///< start from PatternModule::pattern_spec()
  std::shared_ptr<const Geometry> geometry; ///< every rank's extents in every unit of the test
  /// Optional: the geometry of repetition rep > 0 when the layout changes between repetitions
  /// (random strided with Reseed per_repetition); empty: `geometry` in every repetition. Called
  /// on every rank in describe_test; make_tests must already have checked every layout it can
  /// return (checked_offsets.hpp).
  std::function<std::shared_ptr<const Geometry>(int rep)> repetition_geometry;
  /// Optional, for a read of an earlier block's files with units of its own (FilesFrom, IOR's
  /// random reads of ior-easy's files): the geometry over the first `file_bytes` bytes of the
  /// file as this rank finds it (Interface::size), called in describe_test. Setting it makes the
  /// test's TestSpec::chain_cap FileSize: the harness leaves its units uncapped.
  std::function<std::shared_ptr<const Geometry>(std::int64_t file_bytes)> inherited_geometry;
};

/// The directives the engine reads for every pattern, declared once here: Mode (default write;
/// "Title (mode)" in ModuleName sets it), WorkUnits (default `work_units`, at least 1),
/// BytesPerRank (default none: the units of a test move this many bytes per rank instead),
/// HeaderOffset (default 0), ReorderTasks (default 0: off) and LayoutTrace (default none: the
/// engine writes every test's extents per rank and unit, docs/reference/patterns.md). A pattern
/// module lists these first and appends its own.
std::vector<DirectiveSpec>
pattern_directives(const std::string &work_units = "1",
                   const std::string &work_units_help = "work units per test");

/// Base class for spatial pattern modules: it owns the per-test geometries and the I/O.
class PatternModule : public Module {
public:
  /// Reads Mode, WorkUnits, HeaderOffset and ReorderTasks, then calls make_tests() and records
  /// mode, work units, header offset and task reordering of every test in its params. In a
  /// writing mode it refuses a geometry in which two ranks write the same bytes of one unit
  /// (docs/guides/writing-a-module.md, "Overlapping ranks"), and under FileView on a unit whose
  /// extents cannot be put in file order for the view ("Extents out of file order"), before any
  /// I/O.
  std::vector<TestSpec> init_module(const ModuleContext &ctx) final;
  /// Picks the repetition's geometry; prepares the file for the read-type modes (untimed): with
  /// ReorderTasks k, rank (r + k) mod P writes the bytes rank r will read.
  void describe_test(TestContext &test) final;
  /// Extents, buffers, view; the untimed first access of re-read / re-write.
  void before_work_unit(UnitContext &unit) final;
  /// The I/O of one unit (and the flush SyncWrites asks for). The only timed method.
  std::int64_t work_unit(UnitContext &unit) final;
  /// Verify: checks the unit's bytes against their stamps.
  void after_work_unit(UnitContext &unit) final;
  /// Frees the unit buffers and datatypes.
  void cleanup_test(TestContext &test) final;

protected:
  /// The module's tests and their geometries, from its directives. The geometry describes the
  /// test's ranks: all ranks of ctx unless the module sets spec.groups.
  virtual std::vector<PatternTest> make_tests(const ModuleContext &ctx) = 0;
  /// The temporal mode of this module block (valid in make_tests).
  TemporalMode mode() const { return mode_; }
  /// The work units of a test whose unit moves `unit_bytes` per rank (valid in make_tests):
  /// WorkUnits, or with BytesPerRank set, BytesPerRank / unit_bytes rounded up.
  std::int64_t work_units(std::int64_t unit_bytes) const;
  /// BytesPerRank of this module block (0: not set; valid in make_tests).
  std::int64_t bytes_per_rank() const { return bytes_per_rank_; }
  /// HeaderOffset of this module block (valid in make_tests).
  std::int64_t header_offset() const { return header_offset_; }
  /// A one-phase count-driven TestSpec with label, buffer size, header offset and work units
  /// (work_units(buffer_size)) set; buffer_size is recorded in params, and BytesPerRank when
  /// set (init_module adds mode, work units, header offset).
  TestSpec pattern_spec(const std::string &label, std::int64_t buffer_size) const;

private:
  struct Run; // per-test state: geometry, buffers, payload
  /// Throws if in a writing mode two ranks' extents of one unit of a shared file overlap
  /// (rank 0; every unit while the extents checked stay within 2^20 per test).
  void check_no_shared_writes(const ModuleContext &ctx) const;
  /// Throws if under FileView on a unit's extents cannot be put in file order for the view
  /// (a memory datatype, or one rank's extents overlapping each other); rank 0, as above.
  void check_viewable(const ModuleContext &ctx) const;
  TemporalMode mode_ = TemporalMode::Write;
  std::int64_t work_units_ = 1;
  std::int64_t bytes_per_rank_ = 0; // BytesPerRank, 0 = not set
  std::int64_t header_offset_ = 0;
  std::int64_t reorder_tasks_ = 0;
  std::string layout_trace_;       // LayoutTrace path, empty = off
  std::vector<PatternTest> tests_; // by test index: the geometries (specs are the harness's)
  std::shared_ptr<Run> run_;
};

} // namespace pio::patterns
