#pragma once
/// One test of a block: its communicators, file, repetitions and typed result.

#include <optional>

#include "pio/module.hpp"
#include "plan/module_plan.hpp"
#include "run/consensus.hpp"
#include "run/run_state.hpp"

namespace pio::harness {

/// Runs every repetition of test `index` on the ranks its RankGroups name (collective over the
/// block's ranks). Fills `result` on rank 0 and returns, on every rank, the agreed failure.
std::optional<Failure> run_test(RunState &rs, const BlockRanks &ranks, Module &module,
                                const ModuleContext &mctx, const ModulePlan &plan,
                                const TestSpec &spec, int index, TestResult &result);

} // namespace pio::harness
