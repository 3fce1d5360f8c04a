#include "pio/patterns/geometry.hpp"

#include <climits>

#include "pio/patterns/byte_types.hpp"

namespace pio::patterns {

Datatype hindexed_bytes(const std::vector<Extent> &extents, std::int64_t base) {
  bool small = true;
  for (const auto &e : extents)
    small = small && e.length <= INT_MAX;
  MPI_Datatype t = MPI_DATATYPE_NULL;
  const int n = static_cast<int>(extents.size());
  std::vector<MPI_Aint> disps(extents.size());
  for (size_t i = 0; i < extents.size(); ++i)
    disps[i] = static_cast<MPI_Aint>(extents[i].offset - base);
  if (small) {
    std::vector<int> lens(extents.size());
    for (size_t i = 0; i < extents.size(); ++i)
      lens[i] = static_cast<int>(extents[i].length);
    mpi_check(MPI_Type_create_hindexed(n, lens.data(), disps.data(), MPI_BYTE, &t),
              "MPI_Type_create_hindexed");
    return Datatype(t);
  }
  // Some extent exceeds 2 GiB: a struct of one big contiguous type per extent.
  std::vector<Datatype> parts;
  std::vector<MPI_Datatype> types;
  std::vector<int> ones(extents.size(), 1);
  for (const auto &e : extents) {
    parts.push_back(contiguous_bytes(e.length));
    types.push_back(parts.back().get());
  }
  mpi_check(MPI_Type_create_struct(n, ones.data(), disps.data(), types.data(), &t),
            "MPI_Type_create_struct");
  return Datatype(t);
}

FileView Geometry::view(int rank, std::int64_t unit) const {
  const auto ex = extents(rank, unit);
  FileView v;
  v.disp = ex.empty() ? 0 : ex.front().offset;
  v.filetype = hindexed_bytes(ex, v.disp);
  return v;
}

MemoryLayout Geometry::memory(int rank, std::int64_t unit) const {
  MemoryLayout m;
  m.buffer_bytes = unit_bytes(rank, unit);
  return m;
}

std::vector<Extent> Geometry::prepares(int rank, std::int64_t unit) const {
  if (data_rank(rank, unit) != rank)
    return {};
  return extents(rank, unit);
}

std::int64_t Geometry::unit_bytes(int rank, std::int64_t unit) const {
  std::int64_t n = 0;
  for (const auto &e : extents(rank, unit))
    n += e.length;
  return n;
}

} // namespace pio::patterns
