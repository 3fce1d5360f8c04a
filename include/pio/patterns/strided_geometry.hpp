#pragma once
/// Pieces shared by the strided-family modules (thesis §3.4.1: simple, nested and random
/// strided, sequential, segmented): their BufferSizes directive, the geometry of patterns whose
/// work unit is one contiguous run per rank, and the vector datatype builders of strided views.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/directive.hpp"
#include "pio/patterns/geometry.hpp"

namespace pio::patterns {

/// BufferSizes as the strided-family modules declare it: sizes, at least 1 byte each, default
/// `sizes`; one test per size.
DirectiveSpec buffer_sizes_directive(const std::string &sizes);

/// Geometry of a pattern in which each rank touches one contiguous run per work unit
/// (segmented, sequential, random strided). Its file view is one contiguous block.
class ContiguousUnitGeometry : public Geometry {
public:
  /// The one run `rank` touches in `unit`.
  virtual Extent extent(int rank, std::int64_t unit) const = 0;
  std::vector<Extent> extents(int rank, std::int64_t unit) const final;
  FileView view(int rank, std::int64_t unit) const override;
};

/// A committed datatype of `count` blocks of `block` bytes whose starts are `stride` bytes
/// apart (an MPI hvector of contiguous bytes, valid above 2 GiB), resized to extent `extent`
/// (0 = leave the natural extent) so that it can be repeated at a larger outer stride.
Datatype strided_vector(std::int64_t count, std::int64_t block, std::int64_t stride,
                        std::int64_t extent = 0);

/// As strided_vector, but of `count` copies of `inner` (an existing type) `stride` bytes apart.
Datatype strided_vector_of(std::int64_t count, const Datatype &inner, std::int64_t stride,
                           std::int64_t extent = 0);

} // namespace pio::patterns
