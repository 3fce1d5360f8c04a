#include "plan/suite_time.hpp"

#include <cstdio>

#include "config/config_error.hpp"
#include "config/module_reps.hpp"
#include "config/text.hpp"

namespace pio::harness {

namespace {
std::string seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

/// The block's own time: its directive's value over all repetitions.
double own_time(const ModulePlan &p) {
  return p.settings.real(p.info->time_directive) *
         static_cast<double>(planned_reps(p.block->reps, p.block->reps_auto) +
                             p.block->warm_up_reps);
}

std::string where(const ModuleBlock &b) { return b.file + ":" + std::to_string(b.line); }
} // namespace

bool sets_own_time(const ModulePlan &plan) {
  const std::string &name = plan.info->time_directive;
  if (name.empty())
    return false;
  for (const auto &d : plan.block->module_directives)
    if (lower(d.name) == lower(name))
      return true;
  return false;
}

void share_suite_time(const Config &config, std::vector<ModulePlan> &plans) {
  const double budget = config.global.suite_time;
  if (budget <= 0)
    return;
  const auto at = config.global.written.find("SuiteTime");
  const DirectiveLine &line = at->second.back(); // written: SuiteTime > 0 is never a default
  double own = 0, weights = 0;
  std::string own_blocks;
  for (const auto &p : plans) {
    if (p.info->time_directive.empty())
      continue;
    if (sets_own_time(p)) {
      own += own_time(p);
      own_blocks += (own_blocks.empty() ? "" : ", ") + p.label + " (" + where(*p.block) + ")";
    } else {
      weights += p.block->suite_weight;
    }
  }
  if (weights <= 0)
    throw ConfigError(line.file, line.line,
                      "SuiteTime " + seconds(budget) +
                          " has no block to share it: no block's module has a time setting " +
                          (own_blocks.empty()
                               ? std::string("(b_eff_io's ScheduledTime)")
                               : "that its block leaves unset (" + own_blocks + " set their own)"),
                      "remove SuiteTime, or add a b_eff_io block without ScheduledTime");
  if (own >= budget)
    throw ConfigError(line.file, line.line,
                      "SuiteTime " + seconds(budget) +
                          " is used up by the blocks that set their own time (" + own_blocks +
                          ": " + seconds(own) + " with their ModuleReps)",
                      "raise SuiteTime above " + seconds(own) +
                          ", or remove the time setting from those blocks so they share it");
  for (auto &p : plans)
    if (!p.info->time_directive.empty() && !sets_own_time(p))
      p.time_budget_s = (budget - own) * p.block->suite_weight / weights;
}

std::vector<std::string> suite_time_lines(const Config &config,
                                          const std::vector<ModulePlan> &plans) {
  std::vector<std::string> out;
  const double budget = config.global.suite_time;
  if (budget <= 0)
    return out;
  int fixed = 0;
  for (const auto &p : plans)
    fixed += p.info->time_directive.empty() ? 1 : 0;
  out.push_back("SuiteTime " + seconds(budget) + " for the time-driven blocks; " +
                std::to_string(fixed) + " other block" + (fixed == 1 ? "" : "s") +
                " cost what their work costs");
  for (const auto &p : plans) {
    if (p.info->time_directive.empty())
      continue;
    const std::string head = "  " + p.label + " (" + where(*p.block) + "): ";
    if (sets_own_time(p))
      out.push_back(head + "its own " + p.info->time_directive + ", " + seconds(own_time(p)) +
                    " with ModuleReps " +
                    (p.block->reps_auto ? std::string("auto") : std::to_string(p.block->reps)));
    else
      out.push_back(head + "share " + seconds(p.time_budget_s) + " (" + p.info->time_directive +
                    " " +
                    seconds(p.time_budget_s /
                            static_cast<double>(planned_reps(p.block->reps, p.block->reps_auto) +
                                                p.block->warm_up_reps)) +
                    " per repetition)");
  }
  return out;
}

} // namespace pio::harness
