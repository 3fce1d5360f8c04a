#pragma once
/// One IMB-IO benchmark as a pio module (IMB 3.2 User Guide §4.2.4, §4.2.5, §5): the harness
/// opens the file (§5.2.3.2: common file on the active processes, a private one per process for
/// _priv), the module sets the view (§5.2.3.4), and a work unit is one sample of n_sample
/// elementary transfers with the Write benchmarks' completion (§4.2.2.2). Its plan is
/// io_plan.cpp, its calls (all through the I/O seam) io_calls.cpp, its sequencing
/// io_sequence.cpp, its overlap table io_figure.cpp.

#include <map>
#include <memory>
#include <vector>

#include "buffers.hpp"
#include "cpu_exploit.hpp"
#include "layout.hpp"
#include "pio/io/backend.hpp"
#include "pio/module.hpp"
#include "pio/mpi_handles.hpp"
#include "settings.hpp"

namespace imb::io {

/// Whether b writes.
inline bool is_write(const Benchmark &b) { return b.action == Action::Write; }

/// Aggregate: M = n_sample writes, then the completion; non-aggregate: M = 1 (§4.2.2.2.2).
enum class Mode { Aggregate, NonAggregate };

/// The directives of the IMB-IO family (settings_io.h standard values, §5.2.1).
std::vector<pio::DirectiveSpec> directives(const Benchmark &b);

/// What b's calls need of the block's backend (its positioning, collective or not, non-blocking
/// or split; Open_Close writes on the file pointer).
std::vector<pio::io::Capability> needs(const Benchmark &b);

/// The module running one Benchmark.
class IoModule : public pio::Module {
public:
  /// Runs `b`.
  explicit IoModule(Benchmark b) : b_(std::move(b)) {}
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override;
  void describe_test(pio::TestContext &test) override;
  void before_work_unit(pio::UnitContext &unit) override;
  std::int64_t work_unit(pio::UnitContext &unit) override;
  void after_work_unit(pio::UnitContext &unit) override;
  void cleanup_test(pio::TestContext &test) override;
  std::optional<pio::Figure> figure(const pio::ModuleResult &results) override;

  /// This rank's portion of X in the current test.
  const Portion &portion() const { return portion_; }
  /// The current test's t_pure and t_CPU per transfer in seconds (non-blocking benchmarks).
  std::pair<double, double> pure_and_cpu(int test_index) const;

private:
  /// Elementary transfer j as the seam takes it, completed `how`.
  pio::io::Transfer elementary(std::int64_t j, pio::io::Completion how);
  /// Elementary transfer j (§5.2.8: the pure MPI_File_write_XX / read_XX call).
  void transfer(std::int64_t j);
  /// Starts non-blocking transfer j into reqs_[j] (split collectives: the begin only).
  void start(std::int64_t j);
  /// Ends split collective transfer j.
  void finish(std::int64_t j);
  /// Waits for the n_sample non-blocking transfers started.
  void wait_all();
  /// Assures completion of writes: MPI_File_sync / MPI_Barrier / MPI_File_sync (§4.2.2.2.1).
  void complete();
  /// One blocking sample of n transfers.
  void blocking_sample(std::int64_t n);
  /// Open_Close's sample: n times open, write 1 byte, close (§4.2.4.10).
  void open_close(std::int64_t n);
  /// This rank's seconds for a sample of n (blocking) transfers from the start of the file.
  double timed_sample(std::int64_t n);
  /// n_sample after the timing probe and the run-time limit (§5.1.2.6, IMB_mem_manager.c's
  /// dynamic iteration count), agreed by every group of the test (`all`).
  std::int64_t limited_count(MPI_Comm all);
  /// Cuts n_sample by the run-time limit (TimeLimit > 0) and tells the harness.
  void apply_time_limit(pio::TestContext &test);
  /// One non-blocking sample of n transfers, overlapped with the CPU exploit (§4.2.5).
  void overlapped_sample();
  /// Writes the data every read transfer finds (untimed).
  void fill_file();
  /// Moves the file pointers back to the start (untimed).
  void rewind();

  Benchmark b_;
  Config cfg_;
  Mode mode_ = Mode::Aggregate;
  double target_cpu_s_ = 0.01;
  bool verify_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL; ///< the active processes of the test
  int rank_ = 0, np_ = 1;
  pio::io::Interface *io_ = nullptr;     ///< the test's file, through the block's backend
  pio::io::Backend *backend_ = nullptr;  ///< the block's backend (Open_Close opens through it)
  bool views_ = false;                   ///< the backend has file views
  std::vector<pio::io::Extent> extents_; ///< _expl: the file bytes of transfer j, for backends
                                         ///< without views
  std::int64_t x_ = 0, n_ = 1;
  Portion portion_;
  imb::Region buf_; ///< the transfer buffer, from MPI_Alloc_mem as IMB's (IMB_v_alloc)
  pio::Datatype view_;
  CpuExploit cpu_;
  double t_cpu_ = 0;
  std::map<int, std::pair<double, double>> pure_cpu_; ///< per test (root)
  std::vector<MPI_Request> reqs_;
  int test_index_ = 0;
  std::string own_path_;                     ///< Open_Close: the file it opens itself
  int last_np_ = 0;                          ///< the process count of the last test
  std::int64_t previous_n_ = 0;              ///< the last length's count (IMB n_sample_prev)
  std::map<std::string, std::string> hints_; ///< Open_Close: the block's hints
};

} // namespace imb::io
