#include "replay_geometry.hpp"

namespace pio::replay {

ReplayGeometry::ReplayGeometry(std::shared_ptr<const OpStore> store, int ranks, std::int64_t units,
                               bool shared_reads, double first_start, double scale)
    : store_(std::move(store)), ranks_(ranks), units_(units), shared_reads_(shared_reads),
      first_start_(first_start), scale_(scale) {}

bool ReplayGeometry::has(int rank, std::int64_t unit) const {
  return unit < units_ && unit < store_->count(rank);
}

std::vector<patterns::Extent> ReplayGeometry::extents(int rank, std::int64_t unit) const {
  if (!has(rank, unit))
    return {};
  const StoredOp op = store_->at(rank, unit);
  return {{op.offset, op.length}};
}

int ReplayGeometry::data_rank(int rank, std::int64_t unit) const {
  return shared_reads_ ? 0 : Geometry::data_rank(rank, unit);
}

std::vector<patterns::Extent> ReplayGeometry::prepares(int rank, std::int64_t unit) const {
  if (!shared_reads_)
    return Geometry::prepares(rank, unit);
  if (rank != 0)
    return {};
  // Rank 0 writes what every rank reads in this unit (bytes two ranks read get the same stamp).
  std::vector<patterns::Extent> all;
  for (int r = 0; r < ranks_; ++r)
    if (has(r, unit)) {
      const StoredOp op = store_->at(r, unit);
      all.push_back({op.offset, op.length});
    }
  return all;
}

double ReplayGeometry::release_time(int rank, std::int64_t unit) const {
  if (scale_ < 0 || !has(rank, unit))
    return -1;
  return (store_->at(rank, unit).start - first_start_) * scale_;
}

} // namespace pio::replay
