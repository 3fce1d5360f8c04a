#pragma once
/// One <ap_module> block: on its Processes ranks, init_module, every test and repetition,
/// cleanup_module and the module's figure, reported as it goes; the other ranks wait.

#include "plan/block_plan.hpp"
#include "run/run_state.hpp"

namespace pio::harness {

/// Runs block `index` of the plan on the first plan.block->processes ranks of the run (all when
/// 0); the others idle until its end. Collective over the run. Returns false on every rank when
/// init_module found a config error (a DirectiveError): the run then stops with exit code 2.
bool run_block(RunState &rs, const ModulePlan &plan, int index);

} // namespace pio::harness
