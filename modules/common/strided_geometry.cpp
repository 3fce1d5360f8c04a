// Shared pieces of the strided-family pattern modules (thesis §3.4.1, Figs. 3.6-3.9).
#include "common/strided_geometry.hpp"

#include <climits>

#include "common/byte_types.hpp"
#include "pio/error.hpp"

namespace pio::patterns {

std::vector<DirectiveSpec> strided_common_directives(const std::string &sizes,
                                                     const std::string &units) {
  std::vector<DirectiveSpec> d;
  if (!sizes.empty())
    d.push_back({"BufferSizes", DirectiveType::Sizes, sizes,
                 "bytes each rank moves per work unit; one test per size"});
  d.push_back({"WorkUnits", DirectiveType::Integer, units, "work units per test (> 0)"});
  d.push_back({"HeaderOffset", DirectiveType::Size, "0",
               "bytes skipped at the start of the file before the pattern begins"});
  return d;
}

void require_positive(std::int64_t value, const std::string &directive) {
  if (value <= 0)
    throw Error(directive + " must be positive, got " + std::to_string(value),
                "set " + directive + " to a value greater than zero");
}

StridedBasics read_strided_basics(const Settings &settings, bool has_buffer_sizes) {
  StridedBasics b;
  if (has_buffer_sizes) {
    b.buffer_sizes = settings.sizes("BufferSizes");
    for (auto s : b.buffer_sizes)
      require_positive(s, "BufferSizes");
  }
  b.work_units = settings.integer("WorkUnits");
  require_positive(b.work_units, "WorkUnits");
  b.header_offset = settings.size("HeaderOffset");
  if (b.header_offset < 0)
    throw Error("HeaderOffset must not be negative", "set HeaderOffset to 0 or more bytes");
  return b;
}

TestSpec strided_spec(const std::string &label, std::int64_t buffer_size,
                      std::int64_t header_offset, std::int64_t work_units) {
  TestSpec t;
  t.label = label;
  t.buffer_size = buffer_size;
  t.header_offset = header_offset;
  t.phases.at(0).work_units = work_units;
  t.params["buffer_size"] = std::to_string(buffer_size);
  t.params["header_offset"] = std::to_string(header_offset);
  t.params["work_units"] = std::to_string(work_units);
  return t;
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
