#pragma once
/// A pio::Module that runs a Geometry in any of the five temporal modes (thesis §3.4.2),
/// independent or collective, with or without a file view, with Verify. Every spatial pattern
/// module derives from it and supplies only its tests and its geometry.

#include <memory>
#include <vector>

#include "common/geometry.hpp"
#include "common/temporal_mode.hpp"
#include "pio/module.hpp"

namespace pio::patterns {

/// Base class for spatial pattern modules.
class PatternModule : public Module {
public:
  /// Reads Mode, then calls make_tests().
  std::vector<TestSpec> init_module(const ModuleContext &ctx) final;
  void describe_test(TestContext &test) final;
  void before_work_unit(UnitContext &unit) final;
  std::int64_t work_unit(UnitContext &unit) final;
  void after_work_unit(UnitContext &unit) final;
  void cleanup_test(TestContext &test) final;

protected:
  /// The module's tests, from its directives (Mode is already parsed: mode()).
  virtual std::vector<TestSpec> make_tests(const ModuleContext &ctx) = 0;
  /// The geometry of one test, for the ranks of test.comm.
  virtual std::unique_ptr<Geometry> make_geometry(const TestContext &test) = 0;
  /// The temporal mode of this module block.
  TemporalMode mode() const { return mode_; }

private:
  struct Run; // per-test state: geometry, buffers, payload
  TemporalMode mode_ = TemporalMode::Write;
  std::shared_ptr<Run> run_;
};

/// The DirectiveSpecs every pattern module shares (Mode); append your own.
std::vector<DirectiveSpec> pattern_directives();

} // namespace pio::patterns
