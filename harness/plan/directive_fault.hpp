#pragma once
/// A module's pio::DirectiveError from init_module, placed at its directive's line in the block:
/// a config error (exit 2) found by the module, not by the declared limits (docs/reliability.md).

#include <mpi.h>

#include <string>

#include "config/config.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// The ConfigError for `e` at the line of e.directive() in `block` (the line of the value in
/// effect: a Sweep's value or the block's own line; for a harness setting such as Interface
/// also a global line), or at the block's ModuleName line when the directive has its default
/// value.
ConfigError locate_directive_error(const ModuleBlock &block, const DirectiveError &e);

/// The ConfigError for a DirectiveError of plan's backend (its factory or check_test_file): at
/// the line of the option it names (plan.backend_lines), at the block's ModuleName line when the
/// option has its default value, or as locate_directive_error for a harness setting (Interface).
ConfigError locate_backend_error(const ModulePlan &plan, const DirectiveError &e);

/// Runs init() and turns a DirectiveError it throws into locate_directive_error(block, ...);
/// sets *config_error when it did. Other exceptions pass through unchanged.
template <class F>
void init_with_located_errors(const ModuleBlock &block, bool *config_error, F &&init) {
  try {
    init();
  } catch (const DirectiveError &e) {
    *config_error = true;
    throw locate_directive_error(block, e);
  }
}

} // namespace pio::harness
