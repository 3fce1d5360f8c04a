#include "run/preflight.hpp"

#include "guard/position.hpp"
#include "load/library.hpp"
#include "pio/mpi_handles.hpp"
#include "plan/directive_fault.hpp"
#include "run/block_context.hpp"

namespace pio::harness {

namespace {

/// The services of the pre-flight check: no file may be made there.
class NoFileServices : public Services {
public:
  void claim_file(const std::string &path) override {
    throw Error("init_module claimed " + path + " in the pre-flight check",
                "create files only when ModuleContext::validate_only is false");
  }
  void claim_tree(const std::string &path, const TreeRules &) override { claim_file(path); }
};

/// init_module, then cleanup_module, of plan's block on comm (its ranks). Returns, on every rank
/// of comm, the block's located DirectiveError or "" (with every_error, any error of
/// init_module, located at the block's ModuleName line).
std::string check_block(MPI_Comm comm, const ModulePlan &plan, bool every_error,
                        std::vector<TestSpec> &tests) {
  NoFileServices services;
  std::unique_ptr<io::Backend> backend; // destroyed after the instance below
  bool config_error = false;
  // A backend's option it cannot honour here (the kernel's, the TestFile's file system) is a
  // config error at the option's line.
  const std::string made = capture("config", [&] {
    try {
      backend = make_backend(plan);
      backend->check_test_file(plan.test_file);
    } catch (const DirectiveError &e) {
      config_error = true;
      throw locate_backend_error(plan, e);
    }
  });
  ModuleContext mctx = block_context(comm, plan, services, backend.get());
  mctx.validate_only = true;
  const ModuleBlock &block = *plan.block;
  heartbeat_context("pre-flight check of module " + plan.info->name + " (" + block.file + ":" +
                    std::to_string(block.line) + ")");
  heartbeat("init_module");
  Instance inst;
  const std::string err = !made.empty() ? made : capture("config", [&] {
    inst = instantiate(*plan.library, *plan.info);
    init_with_located_errors(block, &config_error, [&] { tests = inst.module->init_module(mctx); });
  });
  if (const auto any = agree(comm, err)) {
    // A config error on any rank stops the run; any other failure is the run's to report at
    // this block (as init_module failed, cleanup_module is not called, as in the run), and
    // --check's to report now: the run would fail there.
    const auto f = agree(comm, config_error ? err : std::string());
    if (f)
      return f->message;
    if (!every_error)
      return {};
    std::string what = any->message;
    if (what.rfind("config: ", 0) == 0)
      what.erase(0, 8);
    return block.file + ":" +
           std::to_string(block.module_name_line ? block.module_name_line : block.line) +
           ": module " + plan.info->name + " cannot run as this block asks on " +
           std::to_string(mctx.size) + " process" + (mctx.size == 1 ? "" : "es") + " (rank " +
           std::to_string(any->rank) + "): " + what;
  }
  heartbeat("cleanup_module");
  (void)agree(comm, capture("cleanup_module", [&] { inst.module->cleanup_module(mctx); }));
  return {};
}

} // namespace

std::optional<Failure> preflight(MPI_Comm comm, const std::vector<ModulePlan> &plans,
                                 bool every_error, std::vector<std::vector<TestSpec>> *declared) {
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
    std::vector<TestSpec> tests;
    if (rank < procs)
      err = check_block(procs < size ? sub.get() : comm, plan, every_error, tests);
    if (declared)
      declared->push_back(std::move(tests));
    if (auto f = agree(comm, err))
      return f;
  }
  return std::nullopt;
}

} // namespace pio::harness
