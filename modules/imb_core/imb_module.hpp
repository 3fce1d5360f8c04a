#pragma once
/// One IMB-MPI1 kernel as a pio module: the methodology of the IMB 3.2 User Guide §5 (lengths,
/// process counts, groups, repetitions, warm-up, off_cache) around a Kernel, timed by the harness.

#include <map>
#include <memory>

#include "buffers.hpp"
#include "kernel.hpp"
#include "pio/module.hpp"
#include "settings.hpp"

namespace imb {

/// A pio module running one Kernel. One test per process count and message length; one work
/// unit is one IMB sample of n_sample operations (§5.2.8.1).
class ImbModule : public pio::Module {
public:
  /// Runs `kernel`.
  explicit ImbModule(std::unique_ptr<Kernel> kernel) : kernel_(std::move(kernel)) {}
  ~ImbModule() override;
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override;
  void describe_test(pio::TestContext &test) override;
  std::int64_t work_unit(pio::UnitContext &unit) override;
  void after_work_unit(pio::UnitContext &unit) override;
  void cleanup_test(pio::TestContext &test) override;

  /// The operation context of the current test (for tests of the family).
  const Op &op() const { return op_; }
  /// Operations in the current sample after the run-time limit.
  std::int64_t n_sample() const { return n_; }

private:
  /// True when each work unit is one operation: Sync (IMB 2019+'s -sync 1) on a collective.
  bool per_operation() const;
  /// Runs operations [0, count) and returns this rank's seconds.
  double run_ops(std::int64_t count);
  /// n_sample after the timing probe and the run-time limit (§5.1.2.6), agreed by all groups
  /// (`all`: every rank of the test, TestContext::all).
  std::int64_t limited_count(MPI_Comm all, std::int64_t n_sample);

  std::unique_ptr<Kernel> kernel_;
  Config cfg_;
  bool verify_ = false;
  int world_rank_ = 0;
  MPI_Comm mapped_ = MPI_COMM_NULL; ///< the group in -map order
  Buffers buf_;
  Op op_;
  std::int64_t n_ = 1;
  int last_np_ = 0;
  std::int64_t previous_n_ = 0; ///< the last length's count in this table (IMB n_sample_prev)
};

/// The ModuleInfo of the kernel `make` creates: name imb_<name>, title IMB's name.
pio::ModuleInfo module_info(std::unique_ptr<Kernel> (*make)(), pio::CreateModule create);

/// A pio::CreateModule for the kernel Make creates.
template <std::unique_ptr<Kernel> (*Make)()> std::unique_ptr<pio::Module> create() {
  return std::make_unique<ImbModule>(Make());
}

} // namespace imb
