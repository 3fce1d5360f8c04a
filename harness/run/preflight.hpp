#pragma once
/// The pre-flight check (docs/reference/reliability.md): every planned block's init_module runs
/// once, before any I/O and in --check, so that a value only a module can judge (a geometry that
/// cannot be, a file beyond 2^63-1 bytes: a pio::DirectiveError) stops the run with exit code 2
/// before the first block starts, not when the run reaches its block.

#include <mpi.h>

#include <optional>
#include <vector>

#include "config/config.hpp"
#include "plan/module_plan.hpp"
#include "run/consensus.hpp"

namespace pio::harness {

/// Collective on comm (the run's ranks). For every plan in order, on the block's own ranks (its
/// Processes; the other ranks wait), makes a module instance, calls init_module with
/// ModuleContext::validate_only set and then cleanup_module. Returns, on every rank, the first
/// block's DirectiveError located at its directive's file:line ("config: FILE:LINE: ... (fix:
/// ...)"), or nothing. Any other error of init_module (a kernel that needs two ranks) is left to
/// the run, which reports it at its block as before, unless every_error (--check: the run would
/// fail there), which returns it located at the block's ModuleName line. `declared`, when given,
/// receives on rank 0 the tests each block's init_module returned (one entry per plan; empty
/// for a block whose init_module failed), so the live progress knows their time budgets.
std::optional<Failure> preflight(MPI_Comm comm, const std::vector<ModulePlan> &plans,
                                 bool every_error = false,
                                 std::vector<std::vector<TestSpec>> *declared = nullptr);

} // namespace pio::harness
