#pragma once
/// Resolving config blocks to loaded modules and validated settings, before any I/O.

#include <string>
#include <vector>

#include "config/config.hpp"
#include "load/catalog.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// The module search path: explicit dirs, then ModulePath (relative to the config file's
/// directory), then PIO_MODULE_PATH (colon-separated), then the install directory.
std::vector<std::string> module_search_path(const std::vector<std::string> &explicit_dirs,
                                            const Config &config);

/// The loader's warnings for the console: Catalog::duplicate_warnings() for duplicates in a
/// directory the user named (the default directories are the harness's own), then each object
/// opened without a manifest.
std::vector<std::string> module_warnings(const Catalog &catalog);

/// Resolves every block (ModuleName by name or title; "Title (mode)" selects Mode) and its
/// backend (plan_backend), validates its directives and labels it (label_blocks). Throws
/// ConfigError at the block's file:line if a module is unknown (listing those available and any
/// library that failed to load), its object cannot be used (stale manifest, another API version:
/// that leads), a directive is invalid or two blocks have the same label. Opens only the objects
/// the blocks name (Catalog::find).
std::vector<ModulePlan> plan_modules(const Config &config, Catalog &catalog);

} // namespace pio::harness
