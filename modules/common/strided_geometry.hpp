#pragma once
/// Pieces shared by the nested strided, random strided, sequential and segmented modules
/// (thesis §3.4.1): the directives they have in common, their validation, the TestSpec they
/// start from, the geometry of patterns whose work unit is one contiguous run per rank, and the
/// vector datatype builder of strided file views.

#include <cstdint>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "pio/directive.hpp"
#include "pio/test_spec.hpp"

namespace pio::patterns {

/// The directives every strided-family module accepts: BufferSizes (default `sizes`; left out
/// when `sizes` is empty), WorkUnits (default `units`) and HeaderOffset (default 0).
std::vector<DirectiveSpec> strided_common_directives(const std::string &sizes,
                                                     const std::string &units);

/// BufferSizes, WorkUnits and HeaderOffset of a module block, validated.
struct StridedBasics {
  std::vector<std::int64_t> buffer_sizes; ///< one test per entry, each > 0
  std::int64_t work_units = 1;            ///< > 0
  std::int64_t header_offset = 0;         ///< >= 0
};

/// Reads the directives of strided_common_directives(); pass has_buffer_sizes = false for a
/// module that declares no BufferSizes. Throws pio::Error naming the bad directive.
StridedBasics read_strided_basics(const Settings &settings, bool has_buffer_sizes = true);

/// Throws pio::Error unless value > 0: "<directive> must be positive".
void require_positive(std::int64_t value, const std::string &directive);

/// A one-phase, count-driven TestSpec with label, buffer size, header offset and units set, and
/// those recorded in params.
TestSpec strided_spec(const std::string &label, std::int64_t buffer_size,
                      std::int64_t header_offset, std::int64_t work_units);

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
