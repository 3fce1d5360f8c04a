#pragma once
/// The seven-method access pattern module interface (DESIGN §3, thesis §3.3.2) and the
/// symbols a module shared object exports.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pio/context.hpp"
#include "pio/directive.hpp"
#include "pio/test_spec.hpp"
#include "pio/version.hpp"

namespace pio {

/// An access pattern module. Methods run on every rank in this order: init_module, then per
/// test and repetition describe_test, (before_work_unit, work_unit, after_work_unit) per unit,
/// cleanup_test; finally cleanup_module. Throw pio::Error to fail; the harness agrees the
/// failure across ranks and reports it.
class Module {
public:
  virtual ~Module() = default;
  /// 1. Reads the module's directives and returns its tests. Untimed.
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
  /// Optional: a figure of merit computed from the module's results document section
  /// (b_eff_io, b_eff). Called on rank 0 only, after cleanup_module. Returns null for none.
  virtual nlohmann::json summarize(const nlohmann::json & /*module_results*/) { return nullptr; }
};

/// What a shared object says about one module it provides.
struct ModuleInfo {
  std::string name;       ///< config name, e.g. "simple_strided"
  std::string title;      ///< thesis name, e.g. "Simple Strided"; "Title (mode)" selects Mode
  std::string summary;    ///< one line for --list-modules
  std::string reference;  ///< where it is defined, e.g. "thesis §3.4.1, Fig. 3.5"
  bool needs_file = true; ///< false for communication kernels
  std::vector<DirectiveSpec> directives;           ///< what its <ap_module> block accepts
  std::function<std::unique_ptr<Module>()> create; ///< makes a fresh instance
};

} // namespace pio

/// Name of the exported int holding the module API version the object was built against.
#define PIO_API_VERSION_SYMBOL "pio_api_version"
/// Name of the exported function returning the object's modules.
#define PIO_MODULES_SYMBOL "pio_modules"

/// Exports the API version and a function returning the given ModuleInfo list. Use once per
/// shared object, at namespace scope:  PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{...})
#define PIO_EXPORT_MODULES(...)                                                                    \
  extern "C" __attribute__((visibility("default"))) const int pio_api_version = pio::kApiVersion;  \
  extern "C" __attribute__((visibility("default"))) std::vector<pio::ModuleInfo> *pio_modules() {  \
    static std::vector<pio::ModuleInfo> modules = __VA_ARGS__;                                     \
    return &modules;                                                                               \
  }
