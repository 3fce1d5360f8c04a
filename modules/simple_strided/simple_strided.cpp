// Simple strided (thesis §3.4.1, Fig. 3.5): the file is divided into stripes; in each stripe
// every process accesses one strip at a displacement given by its rank; the sum of the strip
// lengths is the stride distance, and stripes recur at multiples of it.
//
//   header | r0 strip | r1 strip | ... | rN-1 strip | r0 strip | r1 strip | ...
//          |<-------------- stride ------------->|
//
// A work unit moves BufferSize bytes per rank: BufferSize / StripSize consecutive strips of
// that rank. Unit u, strip k of rank r starts at
//   HeaderOffset + (u * strips_per_unit + k) * Stride + r * StripSize.
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/strided_geometry.hpp"
#include "pio/pio.hpp"

namespace {

using pio::patterns::Extent;

/// Geometry of Fig. 3.5.
class SimpleStrided : public pio::patterns::Geometry {
public:
  SimpleStrided(std::int64_t header, std::int64_t strip, std::int64_t stride,
                std::int64_t strips_per_unit)
      : header_(header), strip_(strip), stride_(stride), per_unit_(strips_per_unit) {}

  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    std::vector<Extent> out;
    for (std::int64_t k = 0; k < per_unit_; ++k)
      out.push_back({first(rank, unit) + k * stride_, strip_});
    return out;
  }

  /// The natural view: an hvector of strips_per_unit strips, one per stride.
  pio::patterns::FileView view(int rank, std::int64_t unit) const override {
    return {first(rank, unit), pio::patterns::strided_vector(per_unit_, strip_, stride_)};
  }

private:
  std::int64_t first(int rank, std::int64_t unit) const {
    return header_ + unit * per_unit_ * stride_ + rank * strip_;
  }
  std::int64_t header_, strip_, stride_, per_unit_;
};

class SimpleStridedModule : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    std::vector<pio::patterns::PatternTest> tests;
    using pio::patterns::checked_mul;
    for (std::int64_t buffer : ctx.settings.sizes("BufferSizes")) {
      const bool has_strip = ctx.settings.has("StripSize");
      const std::int64_t strip = has_strip ? ctx.settings.size("StripSize") : buffer;
      const std::string strip_directive = has_strip ? "StripSize" : "BufferSizes";
      const std::int64_t row = checked_mul(strip, ctx.size, strip_directive,
                                           "the strips of all processes in one stripe");
      const std::int64_t stride = ctx.settings.has("Stride") ? ctx.settings.size("Stride") : row;
      if (buffer % strip != 0)
        throw pio::DirectiveError("StripSize",
                                  "BufferSize " + pio::format_size(buffer) +
                                      " is not a multiple of StripSize " + pio::format_size(strip),
                                  "a work unit moves whole strips: make each buffer size a "
                                  "multiple of the strip size");
      if (stride < row)
        throw pio::DirectiveError("Stride",
                                  "Stride " + pio::format_size(stride) + " is shorter than " +
                                      std::to_string(ctx.size) + " strips of " +
                                      pio::format_size(strip) +
                                      ": strips of different ranks would overlap",
                                  "make Stride at least StripSize x processes, or leave it out");
      // Unit u spans strips_per_unit strides; every strip of every rank lies inside.
      const std::int64_t span = checked_mul(buffer / strip, stride, "Stride", "one work unit");
      pio::patterns::checked_file_end(header_offset(), work_units(buffer), span, "WorkUnits");
      pio::patterns::PatternTest t{
          pattern_spec(pio::format_size(buffer), buffer),
          std::make_shared<SimpleStrided>(header_offset(), strip, stride, buffer / strip)};
      t.spec.params["strip_size"] = std::to_string(strip);
      t.spec.params["stride"] = std::to_string(stride);
      t.spec.params["strips_per_unit"] = std::to_string(buffer / strip);
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<pio::DirectiveSpec> directives() {
  auto d = pio::patterns::pattern_directives("16");
  d.push_back(pio::patterns::buffer_sizes_directive("64K"));
  d.push_back(pio::DirectiveSpec{"StripSize", pio::DirectiveType::Size, "",
                                 "bytes of one strip (default: the buffer size, one strip per "
                                 "unit)"}
                  .at_least(1));
  d.push_back(pio::DirectiveSpec{"Stride", pio::DirectiveType::Size, "",
                                 "distance between a rank's successive strips (default: "
                                 "StripSize x processes)"}
                  .at_least(1));
  return d;
}

pio::ModuleInfo info() {
  pio::ModuleInfo m("simple_strided", pio::make_module<SimpleStridedModule>);
  m.title = "Simple Strided";
  m.summary = "each rank accesses one strip per stripe at a rank displacement, stripes at "
              "multiples of the stride";
  m.reference = "thesis §3.4.1, Fig. 3.5; temporal modes §3.4.2";
  m.directives = directives();
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
