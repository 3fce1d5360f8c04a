#pragma once
/// Resolving config blocks to loaded modules and validated settings, before any I/O.

#include <string>
#include <vector>

#include "config.hpp"
#include "loader.hpp"

namespace pio::harness {

/// One block, resolved: which module of which library, with its validated settings.
struct ModulePlan {
  const ModuleBlock *block = nullptr;
  const LoadedLibrary *library = nullptr;
  const ModuleInfo *info = nullptr;
  Settings settings;
};

/// The module search path: explicit dirs, then ModulePath (relative to the config file's
/// directory), then PIO_MODULE_PATH (colon-separated), then the install directory.
std::vector<std::string> module_search_path(const std::vector<std::string> &explicit_dirs,
                                            const Config &config);

/// Resolves every block (ModuleName by name or title; "Title (mode)" selects Mode) and
/// validates its directives. Throws ConfigError at the block's file:line if a module is unknown
/// (listing those available and any library that failed to load) or a directive is invalid.
std::vector<ModulePlan> plan_modules(const Config &config, const Catalog &catalog);

} // namespace pio::harness
