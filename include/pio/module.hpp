#pragma once
/// The seven-method module interface (thesis §3.3.2, Appendix A) and the symbols a module
/// shared object exports.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pio/abi.hpp"
#include "pio/context.hpp"
#include "pio/directive.hpp"
#include "pio/module_family.hpp"
#include "pio/results.hpp"
#include "pio/spec.hpp"
#include "pio/version.hpp"

namespace pio {

/// An access pattern or communication module. Methods run on every rank in this order:
/// init_module, then per test and repetition describe_test, (before_work_unit, work_unit,
/// after_work_unit) per unit, cleanup_test; finally cleanup_module. init_module and
/// cleanup_module run twice per block, on two instances: first in the pre-flight check before
/// any I/O (ModuleContext::validate_only set: create no files, take no time), then in the run.
/// Throw pio::Error to fail; the harness agrees the failure across ranks and reports it.
class Module {
public:
  virtual ~Module() = default;
  /// 1. Reads the module's directives and returns its tests. Untimed. Also called, with
  /// ctx.validate_only, in the pre-flight check (then cleanup_module): return the same tests.
  virtual std::vector<TestSpec> init_module(const ModuleContext &ctx) = 0;
  /// 2. Builds datatypes, buffers and the file view on the already-open file. Untimed.
  virtual void describe_test(TestContext &test) = 0;
  /// 3. Seeks, resets a view, defeats caches. Untimed.
  virtual void before_work_unit(UnitContext &) {}
  /// 4. The I/O or communication itself (and the flush when asked). The only timed method.
  /// Returns the bytes this rank moved in the unit.
  virtual std::int64_t work_unit(UnitContext &unit) = 0;
  /// 5. Verification, cache manipulation. Untimed.
  virtual void after_work_unit(UnitContext &) {}
  /// 6. Frees datatypes and buffers; the harness has closed the file. Untimed.
  virtual void cleanup_test(TestContext &) {}
  /// 7. Frees the rest; deletes files the module itself created. Untimed.
  virtual void cleanup_module(const ModuleContext &) {}
  /// Optional: the module's figure of merit (b_eff_io, b_eff, COMMTEST statistics), computed
  /// from its block's typed results. Called on rank 0 only, after cleanup_module.
  virtual std::optional<Figure> figure(const ModuleResult & /*results*/) { return std::nullopt; }
};

/// Makes a fresh module instance.
using CreateModule = std::unique_ptr<Module> (*)();

/// A CreateModule for class M: `pio::ModuleInfo info("name", pio::make_module<M>);`
template <class M> std::unique_ptr<Module> make_module() { return std::make_unique<M>(); }

/// What a shared object says about one module it provides. Set fields by name after
/// construction, so adding a field never shifts a module's arguments.
struct ModuleInfo {
  /// name: config name, e.g. "simple_strided"; create: makes a fresh instance.
  ModuleInfo(std::string name, CreateModule create) : name(std::move(name)), create(create) {}

  std::string name;      ///< config name, e.g. "simple_strided"
  CreateModule create;   ///< makes a fresh instance
  std::string title;     ///< thesis name, e.g. "Simple Strided"; "Title (mode)" selects Mode
  std::string summary;   ///< one line for --list-modules
  std::string reference; ///< where it is defined, e.g. "thesis §3.4.1, Fig. 3.5"
  Output output = Output::Table;         ///< how the console shows its tests
  std::vector<DirectiveSpec> directives; ///< what its <ap_module> block accepts
  /// The directive that sets the module's total run time in seconds (b_eff_io's ScheduledTime),
  /// "" for a module that runs for what its work costs. A block of such a module that does not
  /// write the directive takes a share of the run's SuiteTime (ModuleContext::time_budget_s).
  std::string time_directive;
  /// The Interface (backend) of this module's blocks that no Interface line reaches; "" = the
  /// harness's default. metadata's is posix, mdtest's default API.
  std::string default_interface;
  /// Its tests form one schedule that runs once (b_eff_io: its reads check what its writes and
  /// rewrites left): the harness refuses ModuleReps above 1 and WarmUpReps at their lines.
  bool runs_once = false;
  /// The family the module belongs to, which tells the tools how to read and show its results
  /// (the results' `family`); a module of a site's own that moves bytes keeps Patterns.
  ModuleFamily family = ModuleFamily::Patterns;
};

} // namespace pio

/// Name of the exported int holding the module API version the object was built against.
#define PIO_API_VERSION_SYMBOL "pio_api_version"
/// Name of the exported pio::AbiFingerprint of the object.
#define PIO_ABI_SYMBOL "pio_abi_fingerprint"
/// Name of the exported function returning the object's modules.
#define PIO_MODULES_SYMBOL "pio_modules"

/// Exports the API version, the ABI fingerprint and a function returning the given ModuleInfo
/// list. Use once per shared object, at namespace scope:
///   PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{simple_info(), ...})
#define PIO_EXPORT_MODULES(...)                                                                    \
  extern "C" __attribute__((visibility("default"))) const int pio_api_version = pio::kApiVersion;  \
  extern "C" __attribute__((visibility("default")))                                                \
  const pio::AbiFingerprint pio_abi_fingerprint = PIO_ABI_FINGERPRINT_INIT;                        \
  extern "C" __attribute__((visibility("default"))) const std::vector<pio::ModuleInfo>             \
      *pio_modules() {                                                                             \
    static const std::vector<pio::ModuleInfo> modules = __VA_ARGS__;                               \
    return &modules;                                                                               \
  }
