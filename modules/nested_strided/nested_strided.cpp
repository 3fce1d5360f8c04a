// Nested strided access pattern: thesis §3.4.1, Fig. 3.6 (results §4.2.3, Fig. 4.2).
//
// "Nested strided is a complex access pattern that combines multiple simple strided accesses
// into each striping element. Namely, each strip of access within the nested strided access
// pattern is one or more stripes of access of a simple strided access. There is an internal
// stride distance and an external stride distance ... This type of access can be represented
// in two dimensional form as a series of tiles."
//
// Geometry (P ranks, rank r, work unit u, H = HeaderOffset, B = buffer size):
//   inner strip  b  = B / (InnerCount * OuterCount) contiguous bytes
//   inner stride si = InnerStride (default P*b): a simple strided access of InnerCount strips,
//                     ranks side by side at displacement r*b (the columns of a tile)
//   outer stride so = OuterStride (default InnerCount*si): OuterCount such tiles per unit
//   extent (g, i) = H + (u*OuterCount + g)*so + r*b + i*si, length b,
//                   g < OuterCount, i < InnerCount, in that (file and memory) order.
// Memory is contiguous; the file view is a vector of vectors (hvector of hvectors of b bytes).
// The temporal modes (§3.4.2) and the I/O itself are the engine's
// (pio/patterns/pattern_module.hpp).

#include <memory>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/strided_geometry.hpp"

namespace pio::patterns {
namespace {

/// The shape of one nested strided test.
struct NestedShape {
  std::int64_t header = 0;       ///< H
  std::int64_t strip = 0;        ///< b: bytes of one inner strip
  std::int64_t inner_count = 0;  ///< strips per tile (per outer strip)
  std::int64_t inner_stride = 0; ///< si
  std::int64_t outer_count = 0;  ///< tiles per work unit
  std::int64_t outer_stride = 0; ///< so
};

/// Thesis Fig. 3.6: tiles of simple strided strips, repeated at the outer stride.
class NestedStridedGeometry : public Geometry {
public:
  explicit NestedStridedGeometry(const NestedShape &s) : s_(s) {}

  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    std::vector<Extent> out;
    out.reserve(static_cast<size_t>(s_.outer_count * s_.inner_count));
    for (std::int64_t g = 0; g < s_.outer_count; ++g)
      for (std::int64_t i = 0; i < s_.inner_count; ++i)
        out.push_back(
            {first_byte(rank, unit) + g * s_.outer_stride + i * s_.inner_stride, s_.strip});
    return out;
  }

  /// The natural datatype: OuterCount copies, so apart, of InnerCount strips, si apart.
  FileView view(int rank, std::int64_t unit) const override {
    FileView v;
    v.disp = first_byte(rank, unit);
    const Datatype tile = strided_vector(s_.inner_count, s_.strip, s_.inner_stride);
    v.filetype = strided_vector_of(s_.outer_count, tile, s_.outer_stride);
    return v;
  }

private:
  std::int64_t first_byte(int rank, std::int64_t unit) const {
    return s_.header + unit * s_.outer_count * s_.outer_stride + rank * s_.strip;
  }
  NestedShape s_;
};

class NestedStrided : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const std::int64_t inner_count = ctx.settings.integer("InnerCount");
    const std::int64_t outer_count = ctx.settings.integer("OuterCount");
    const std::int64_t inner_stride = ctx.settings.size("InnerStride");
    const std::int64_t outer_stride = ctx.settings.size("OuterStride");
    if (inner_stride != 0 && outer_stride != 0 && inner_stride > outer_stride)
      throw DirectiveError(
          "InnerStride",
          "InnerStride (" + format_size(inner_stride) + ") is larger than OuterStride (" +
              format_size(outer_stride) + ")",
          "the inner stride separates strips inside a tile and must not exceed the "
          "outer stride between tiles (thesis §3.4.1, Fig. 3.6)");
    std::vector<PatternTest> tests;
    for (const std::int64_t size : ctx.settings.sizes("BufferSizes")) {
      const std::int64_t strips =
          checked_mul(inner_count, outer_count, "OuterCount", "InnerCount x OuterCount strips");
      if (size % strips != 0)
        throw DirectiveError(
            "BufferSizes",
            "BufferSizes " + format_size(size) +
                " is not a multiple of InnerCount x OuterCount = " + std::to_string(strips),
            "each rank moves InnerCount x OuterCount strips of equal size per unit; "
            "choose buffer sizes divisible by " +
                std::to_string(strips));
      NestedShape s;
      s.header = header_offset();
      s.strip = size / strips;
      s.inner_count = inner_count;
      s.outer_count = outer_count;
      const std::int64_t row =
          checked_mul(ctx.size, s.strip, "BufferSizes", "the strips of all processes in a row");
      s.inner_stride = inner_stride != 0 ? inner_stride : row;
      const std::int64_t tile =
          checked_mul(inner_count, s.inner_stride, "InnerStride", "InnerCount x InnerStride");
      s.outer_stride = outer_stride != 0 ? outer_stride : tile;
      if (s.inner_stride < row)
        throw DirectiveError(
            "InnerStride",
            "InnerStride " + format_size(s.inner_stride) + " is smaller than " +
                std::to_string(ctx.size) + " ranks x strip " + format_size(s.strip) +
                " (buffer size " + format_size(size) + ")",
            "ranks' strips would overlap: set InnerStride to 0 (dense) or at least " +
                format_size(row));
      if (s.outer_stride < tile)
        throw DirectiveError("OuterStride",
                             "OuterStride " + format_size(s.outer_stride) +
                                 " is smaller than InnerCount x InnerStride = " + format_size(tile),
                             "tiles would overlap: set OuterStride to 0 (dense) or at least " +
                                 format_size(tile));
      // Unit u spans OuterCount outer strides; every strip of every rank lies inside.
      checked_file_end(s.header, work_units(size),
                       checked_mul(outer_count, s.outer_stride, "OuterStride",
                                   "OuterCount x OuterStride, one work unit"),
                       "WorkUnits");
      PatternTest t{pattern_spec(format_size(size), size),
                    std::make_shared<NestedStridedGeometry>(s)};
      t.spec.params["strip"] = std::to_string(s.strip);
      t.spec.params["inner_count"] = std::to_string(s.inner_count);
      t.spec.params["inner_stride"] = std::to_string(s.inner_stride);
      t.spec.params["outer_count"] = std::to_string(s.outer_count);
      t.spec.params["outer_stride"] = std::to_string(s.outer_stride);
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("4");
  d.push_back(buffer_sizes_directive("1K 4K 16K 64K 256K 1M"));
  d.push_back(DirectiveSpec{"InnerCount", DirectiveType::Integer, "4",
                            "strips per tile: the inner simple strided access"}
                  .at_least(1));
  d.push_back(
      DirectiveSpec{"OuterCount", DirectiveType::Integer, "2", "tiles per work unit"}.at_least(1));
  d.push_back({"InnerStride", DirectiveType::Size, "0",
               "bytes between a rank's strips inside a tile (0 = ranks x strip, dense)"});
  d.push_back({"OuterStride", DirectiveType::Size, "0",
               "bytes between a rank's tiles (0 = InnerCount x InnerStride, dense)"});
  return d;
}

ModuleInfo info() {
  ModuleInfo m("nested_strided", make_module<NestedStrided>);
  m.title = "Nested Strided";
  m.summary = "strips that are themselves simple strided: tiles of InnerCount strips, inner and "
              "outer strides";
  m.reference = "thesis §3.4.1, Fig. 3.6; §4.2.3, Fig. 4.2";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
