#pragma once
/// SuiteTime: the run's time budget shared by its time-driven blocks (docs/guides/running.md,
/// "site.conf").

#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// True when plan's module has a time directive (ModuleInfo::time_directive) and its block
/// writes it (or sweeps it): the block's own time wins over a share of SuiteTime.
bool sets_own_time(const ModulePlan &plan);

/// Divides SuiteTime among the blocks whose module has a time directive and whose block does
/// not set it: each gets (SuiteTime - the time of the blocks that set their own, value x
/// ModuleReps) x its SuiteWeight / the sum of the weights, into ModulePlan::time_budget_s (all
/// repetitions). Nothing when SuiteTime is 0. Throws ConfigError at the SuiteTime line when no
/// block takes a share, or when the blocks that set their own time use the whole budget.
void share_suite_time(const Config &config, std::vector<ModulePlan> &plans);

/// The planned shares as lines for --check: "SuiteTime 60 s: ..." then one line per
/// time-driven block (share, per repetition, or its own time) and the count of fixed-cost
/// blocks. Empty when SuiteTime is 0.
std::vector<std::string> suite_time_lines(const Config &config,
                                          const std::vector<ModulePlan> &plans);

} // namespace pio::harness
