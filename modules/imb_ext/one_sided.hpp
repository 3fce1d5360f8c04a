#pragma once
/// What the IMB-EXT kernels share (IMB 3.2 User Guide §4.2.2.2, §4.2.3, §5.2.3.1): the aggregate
/// and non-aggregate modes, the window over disjoint target sections, and the family's
/// directives.

#include <cstdint>
#include <memory>
#include <vector>

#include "kernel.hpp"
#include "pio/module.hpp"
#include "pio/mpi_handles.hpp"

namespace imb::ext {

/// Aggregate mode: M = n_sample transfers, then one MPI_Win_fence; non-aggregate: M = 1, a fence
/// after every transfer (§4.2.2.2.2, Figure 5).
enum class Mode { Aggregate, NonAggregate };

/// A one-sided kernel: owns the window of one test. The window exposes `slots` sections of X
/// bytes (aggregate mode: n_sample disjoint sections, §4.2.2.2.2; otherwise one).
class OneSided : public Kernel {
public:
  /// mode: the default (a block's Mode directive overrides it when the kernel has modes).
  explicit OneSided(Mode mode, bool has_modes) : mode_(mode), has_modes_(has_modes) {}
  void configure(const pio::Settings &s, Config &c) override;
  std::map<std::string, std::string> params() const override;
  pio::TableMode table_mode() const override;
  void release(const Op &op) override;

  /// The current mode.
  Mode mode() const { return mode_; }
  /// This rank's window memory (the target sections).
  const std::vector<char> &window_memory() const { return memory_; }
  /// Sections of X bytes the window holds.
  std::int64_t slots() const { return slots_; }
  /// Target displacement (in sections) of transfer i.
  std::int64_t section(std::int64_t i) const { return mode_ == Mode::Aggregate ? i % slots_ : 0; }

protected:
  /// Creates the window over `bytes_per_slot` x slots bytes of memory (exposed when `expose`,
  /// otherwise an empty window) with displacement unit `unit`, then opens the first access
  /// epoch with MPI_Win_fence (§5.2.3.1).
  void open_window(const Op &op, std::int64_t bytes_per_slot, bool expose, int unit);
  /// MPI_Win_fence on the window: assures completion (§4.2.2.2.1).
  void fence() const;

  std::vector<char> memory_; ///< the window's memory on this rank
  pio::Win win_;             ///< the window of the current test

private:
  Mode mode_;
  bool has_modes_;
  bool zero_sections_ = false; ///< Sections zero: every transfer at displacement 0 (IMB 2019+)
  std::int64_t slots_ = 1;
};

/// The directives of every IMB-EXT kernel: IMB-MPI1's (settings.h holds the same standard values
/// for EXT, §5.2.1 Table 19) plus MsgsNonAggr, and Mode for the kernels with modes.
std::vector<pio::DirectiveSpec> directives(bool has_modes);

/// The six kernels of §4.2.3.
std::unique_ptr<OneSided> make_unidir_put();
std::unique_ptr<OneSided> make_unidir_get();
std::unique_ptr<OneSided> make_bidir_put();
std::unique_ptr<OneSided> make_bidir_get();
std::unique_ptr<OneSided> make_accumulate();
std::unique_ptr<OneSided> make_window();

} // namespace imb::ext
