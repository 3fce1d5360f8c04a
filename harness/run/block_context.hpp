#pragma once
/// What a block's module methods are given: its ranks and its ModuleContext, the same in the
/// run (runner.cpp) and in the pre-flight check (preflight.cpp).

#include <mpi.h>

#include <memory>

#include "config/config.hpp"
#include "plan/module_plan.hpp"
#include "pio/context.hpp"

namespace pio::harness {

/// The ranks a block runs on: its Processes, at most run_size (all of the run when not set).
int block_processes(const ModuleBlock &block, int run_size);

/// The ModuleContext of plan's block on comm (the block's ranks), with the harness's services
/// and the block's backend (make_backend).
ModuleContext block_context(MPI_Comm comm, const ModulePlan &plan, Services &services,
                            io::Backend *backend);

/// The block's backend configured with its options (BackendInfo::create); throws pio::Error when
/// the backend cannot be made.
std::unique_ptr<io::Backend> make_backend(const ModulePlan &plan);

} // namespace pio::harness
