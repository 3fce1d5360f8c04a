// A phase's extents ahead of its units (unit_plan.hpp).
#include "unit_plan.hpp"

#include "pio/patterns/strided_geometry.hpp"

namespace pio::patterns {

void UnitPlan::fill(const Geometry &geometry, int rank, std::int64_t first, std::int64_t units,
                    std::size_t max_entries) {
  first_ = first;
  extents_.clear();
  starts_.assign(1, 0);
  std::int64_t unit = first;
  // One run per unit (segmented, random offsets ...): its extent, without a vector per unit.
  if (const auto *contiguous = dynamic_cast<const ContiguousUnitGeometry *>(&geometry)) {
    do {
      if (unit > first && extents_.size() + starts_.size() + 2 > max_entries)
        break;
      extents_.push_back(contiguous->extent(rank, unit));
      starts_.push_back(extents_.size());
    } while (++unit < units);
    return;
  }
  do {
    const std::vector<Extent> e = geometry.extents(rank, unit);
    if (unit > first && extents_.size() + starts_.size() + e.size() + 1 > max_entries)
      break;
    extents_.insert(extents_.end(), e.begin(), e.end());
    starts_.push_back(extents_.size());
  } while (++unit < units);
}

} // namespace pio::patterns
