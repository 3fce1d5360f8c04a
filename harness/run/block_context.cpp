#include "run/block_context.hpp"

#include <algorithm>

#include "config/module_reps.hpp"
#include "guard/position.hpp"

namespace pio::harness {

int block_processes(const ModuleBlock &block, int run_size) {
  return block.processes > 0 ? std::min(block.processes, run_size) : run_size;
}

std::unique_ptr<io::Backend> make_backend(const ModulePlan &plan) {
  std::unique_ptr<io::Backend> b = plan.backend->create(plan.backend_settings);
  if (!b)
    throw Error("backend " + plan.backend->name + " in " + plan.backend_library->path +
                    " made no object",
                "its BackendInfo::create must return a new backend");
  return b;
}

ModuleContext block_context(MPI_Comm comm, const ModulePlan &plan, Services &services,
                            io::Backend *backend) {
  const ModuleBlock &block = *plan.block;
  ModuleContext mctx;
  mctx.comm = comm;
  MPI_Comm_rank(comm, &mctx.rank);
  MPI_Comm_size(comm, &mctx.size);
  mctx.module_name = plan.info->name;
  mctx.settings = plan.settings;
  mctx.test_file = plan.test_file;
  mctx.shared.made_earlier = plan.chain.source >= 0;
  mctx.shared.used_later = plan.chain.used_later;
  mctx.verify = block.verify;
  mctx.sync_writes = block.sync_writes;
  mctx.collective = block.collective;
  mctx.use_file_view = block.file_view;
  mctx.hints = block.hints;
  mctx.interface = plan.backend->name;
  mctx.capabilities = plan.backend->capabilities;
  mctx.backend = backend;
  mctx.services = &services;
  mctx.progress = module_progress(); // counted by StepTimeout's watchdog
  mctx.time_budget_s =
      plan.time_budget_s /
      static_cast<double>(planned_reps(block.reps, block.reps_auto) + block.warm_up_reps);
  return mctx;
}

} // namespace pio::harness
