#include "run/preflight.hpp"

#include "run/block_context.hpp"
#include "plan/directive_fault.hpp"
#include "load/library.hpp"
#include "pio/mpi_handles.hpp"
#include "guard/position.hpp"

namespace pio::harness {

namespace {

/// The services of the pre-flight check: no file may be made there.
class NoFileServices : public Services {
public:
  void claim_file(const std::string &path) override {
    throw Error("init_module claimed " + path + " in the pre-flight check",
                "create files only when ModuleContext::validate_only is false");
  }
};

/// init_module, then cleanup_module, of plan's block on comm (its ranks). Returns, on every rank
/// of comm, the block's located DirectiveError or "".
std::string check_block(MPI_Comm comm, const Config &config, const ModulePlan &plan) {
  NoFileServices services;
  ModuleContext mctx = block_context(comm, config, plan, services);
  mctx.validate_only = true;
  const ModuleBlock &block = *plan.block;
  heartbeat_context("pre-flight check of module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("init_module");
  Instance inst;
  bool config_error = false;
  const std::string err = capture("config", [&] {
    inst = instantiate(*plan.library, *plan.info);
    init_with_located_errors(block, &config_error, [&] { (void)inst.module->init_module(mctx); });
  });
  if (agree(comm, err)) {
    // A config error on any rank stops the run; any other failure is the run's to report at
    // this block (as init_module failed, cleanup_module is not called, as in the run).
    const auto f = agree(comm, config_error ? err : std::string());
    return f ? f->message : std::string();
  }
  heartbeat("cleanup_module");
  (void)agree(comm, capture("cleanup_module", [&] { inst.module->cleanup_module(mctx); }));
  return {};
}

} // namespace

std::optional<Failure> preflight(MPI_Comm comm, const Config &config,
                                 const std::vector<ModulePlan> &plans) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (const ModulePlan &plan : plans) {
    const int procs = block_processes(*plan.block, size);
    Comm sub; // the block's ranks, as in the run (runner.cpp, run_block)
    if (procs < size)
      mpi_check(MPI_Comm_split(comm, rank < procs ? 0 : MPI_UNDEFINED, rank, sub.out()),
                "MPI_Comm_split");
    std::string err;
    if (rank < procs)
      err = check_block(procs < size ? sub.get() : comm, config, plan);
    if (auto f = agree(comm, err))
      return f;
  }
  return std::nullopt;
}

} // namespace pio::harness
