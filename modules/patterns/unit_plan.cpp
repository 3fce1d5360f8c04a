// A phase's extents ahead of its units (unit_plan.hpp).
#include "unit_plan.hpp"

namespace pio::patterns {

void UnitPlan::fill(const Geometry &geometry, int rank, std::int64_t first, std::int64_t units,
                    std::size_t max_entries) {
  first_ = first;
  extents_.clear();
  starts_.assign(1, 0);
  std::int64_t unit = first;
  do {
    const std::vector<Extent> e = geometry.extents(rank, unit);
    if (unit > first && extents_.size() + starts_.size() + e.size() + 1 > max_entries)
      break;
    extents_.insert(extents_.end(), e.begin(), e.end());
    starts_.push_back(extents_.size());
  } while (++unit < units);
}

} // namespace pio::patterns
