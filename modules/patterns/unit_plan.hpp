#pragma once
/// The extents of a phase's work units, computed before the units run, as IOR draws its random
/// offsets before its loop: a unit's extents are then read from a table between units instead
/// of asked of the Geometry there, where the time lies inside the other ranks' timed units
/// (TimingScope phase times the union of the ranks' units, docs/reference/timing.md). The whole phase
/// when it fits the bound, else as many whole units as fit, one batch at a time.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pio/patterns/geometry.hpp"

namespace pio::patterns {

/// Entries a plan holds at most: an extent (16 bytes) or a unit's start (8 bytes) each, so at
/// most 16 MiB per rank. A million units of one extent each fit.
inline constexpr std::size_t kUnitPlanEntries = std::size_t(1) << 20;

/// One rank's extents of a run of consecutive units of a Geometry.
class UnitPlan {
public:
  /// Plans units from `first` on: as many whole units as fit `max_entries` (at least one, so a
  /// unit larger than the bound has a plan of its own), up to unit `units` - 1.
  void fill(const Geometry &geometry, int rank, std::int64_t first, std::int64_t units,
            std::size_t max_entries = kUnitPlanEntries);
  /// Whether `unit` is planned.
  bool holds(std::int64_t unit) const {
    return unit >= first_ && unit - first_ + 1 < static_cast<std::int64_t>(starts_.size());
  }
  /// The first unit after the plan.
  std::int64_t end() const { return first_ + static_cast<std::int64_t>(starts_.size()) - 1; }
  /// The extents of `unit` (holds(unit)), in the Geometry's order.
  const Extent *begin(std::int64_t unit) const { return extents_.data() + starts_[index(unit)]; }
  const Extent *end(std::int64_t unit) const { return extents_.data() + starts_[index(unit) + 1]; }

private:
  std::size_t index(std::int64_t unit) const { return static_cast<std::size_t>(unit - first_); }

  std::int64_t first_ = 0;
  std::vector<Extent> extents_;     ///< the planned units' extents, one unit after another
  std::vector<std::size_t> starts_; ///< unit first_ + k's extents begin at starts_[k]; + 1 entry
};

} // namespace pio::patterns
