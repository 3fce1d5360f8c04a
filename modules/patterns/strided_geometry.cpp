// Shared pieces of the strided-family pattern modules (thesis §3.4.1, Figs. 3.6-3.9).
#include "pio/patterns/strided_geometry.hpp"

#include <climits>

#include "pio/error.hpp"
#include "pio/patterns/byte_types.hpp"

namespace pio::patterns {

DirectiveSpec buffer_sizes_directive(const std::string &sizes) {
  return DirectiveSpec{"BufferSizes", DirectiveType::Sizes, sizes,
                       "bytes each rank moves per work unit; one test per size"}
      .at_least(1);
}

std::vector<Extent> ContiguousUnitGeometry::extents(int rank, std::int64_t unit) const {
  return {extent(rank, unit)};
}

FileView ContiguousUnitGeometry::view(int rank, std::int64_t unit) const {
  const Extent e = extent(rank, unit);
  FileView v;
  v.disp = e.offset;
  v.filetype = contiguous_bytes(e.length);
  return v;
}

namespace {
int to_count(std::int64_t count) {
  if (count <= 0 || count > INT_MAX)
    throw Error("strided datatype count " + std::to_string(count) + " is out of range",
                "use between 1 and " + std::to_string(INT_MAX) + " blocks per work unit");
  return static_cast<int>(count);
}
} // namespace

Datatype strided_vector_of(std::int64_t count, const Datatype &inner, std::int64_t stride,
                           std::int64_t extent) {
  MPI_Datatype v = MPI_DATATYPE_NULL;
  mpi_check(
      MPI_Type_create_hvector(to_count(count), 1, static_cast<MPI_Aint>(stride), inner.get(), &v),
      "MPI_Type_create_hvector");
  if (extent <= 0)
    return Datatype(v);
  Datatype vector(v, false);
  MPI_Datatype r = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_create_resized(vector.get(), 0, static_cast<MPI_Aint>(extent), &r),
            "MPI_Type_create_resized");
  return Datatype(r);
}

Datatype strided_vector(std::int64_t count, std::int64_t block, std::int64_t stride,
                        std::int64_t extent) {
  return strided_vector_of(count, contiguous_bytes(block), stride, extent);
}

} // namespace pio::patterns
