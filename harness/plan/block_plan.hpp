#pragma once
/// One config block resolved to its module: the plan's unit.

#include <string>

#include "config/config_model.hpp"
#include "load/library.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

/// One block, resolved: which module of which library, with its validated settings.
struct ModulePlan {
  const ModuleBlock *block = nullptr;
  const LoadedLibrary *library = nullptr;
  const ModuleInfo *info = nullptr;
  Settings settings;
  std::string label; ///< the block's label (block_label.hpp), unique in the run
  double time_budget_s = 0; ///< the block's share of SuiteTime, all repetitions (suite_time.hpp)
};

} // namespace pio::harness
