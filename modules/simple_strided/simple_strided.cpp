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
#include "common/byte_types.hpp"
#include "common/pattern_module.hpp"
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
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    pio::Datatype strip_t = pio::patterns::contiguous_bytes(strip_);
    pio::mpi_check(
        MPI_Type_create_hvector(static_cast<int>(per_unit_), 1, stride_, strip_t.get(), &vec),
        "MPI_Type_create_hvector");
    return {first(rank, unit), pio::Datatype(vec)};
  }

private:
  std::int64_t first(int rank, std::int64_t unit) const {
    return header_ + unit * per_unit_ * stride_ + rank * strip_;
  }
  std::int64_t header_, strip_, stride_, per_unit_;
};

class SimpleStridedModule : public pio::patterns::PatternModule {
  std::vector<pio::TestSpec> make_tests(const pio::ModuleContext &ctx) override {
    const std::int64_t units = ctx.settings.integer("WorkUnits");
    const std::int64_t header = ctx.settings.size("HeaderOffset");
    if (units < 1)
      throw pio::Error("WorkUnits " + std::to_string(units) + " must be at least 1",
                       "set WorkUnits 1 or more");
    std::vector<pio::TestSpec> tests;
    for (std::int64_t buffer : ctx.settings.sizes("BufferSizes")) {
      const std::int64_t strip =
          ctx.settings.has("StripSize") ? ctx.settings.size("StripSize") : buffer;
      const std::int64_t stride =
          ctx.settings.has("Stride") ? ctx.settings.size("Stride") : strip * ctx.size;
      if (buffer <= 0 || strip <= 0)
        throw pio::Error("BufferSizes and StripSize must be positive",
                         "give sizes such as 4K 64K 1M");
      if (buffer % strip != 0)
        throw pio::Error("BufferSize " + pio::format_size(buffer) +
                             " is not a multiple of StripSize " + pio::format_size(strip),
                         "a work unit moves whole strips: make each buffer size a multiple of "
                         "the strip size");
      if (stride < strip * ctx.size)
        throw pio::Error("Stride " + pio::format_size(stride) + " is shorter than " +
                             std::to_string(ctx.size) + " strips of " + pio::format_size(strip) +
                             ": strips of different ranks would overlap",
                         "make Stride at least StripSize x processes, or leave it out");
      pio::TestSpec t;
      t.label = pio::format_size(buffer);
      t.buffer_size = buffer;
      t.header_offset = header;
      t.phases[0].work_units = units;
      t.params = {{"strip_size", std::to_string(strip)},
                  {"stride", std::to_string(stride)},
                  {"strips_per_unit", std::to_string(buffer / strip)}};
      tests.push_back(t);
    }
    return tests;
  }

  std::unique_ptr<pio::patterns::Geometry> make_geometry(const pio::TestContext &test) override {
    const auto &p = test.spec->params;
    return std::make_unique<SimpleStrided>(test.spec->header_offset, std::stoll(p.at("strip_size")),
                                           std::stoll(p.at("stride")),
                                           std::stoll(p.at("strips_per_unit")));
  }
};

std::vector<pio::DirectiveSpec> directives() {
  auto d = pio::patterns::pattern_directives();
  d.push_back({"BufferSizes", pio::DirectiveType::Sizes, "64K",
               "bytes per rank per work unit; one test per size"});
  d.push_back({"StripSize", pio::DirectiveType::Size, "",
               "bytes of one strip (default: the buffer size, one strip per unit)"});
  d.push_back({"Stride", pio::DirectiveType::Size, "",
               "distance between a rank's successive strips (default: StripSize x processes)"});
  d.push_back({"WorkUnits", pio::DirectiveType::Integer, "16", "work units per test"});
  d.push_back(
      {"HeaderOffset", pio::DirectiveType::Size, "0", "bytes skipped at the start of the file"});
  return d;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"simple_strided", "Simple Strided",
     "each rank accesses one strip per stripe at a rank displacement, stripes at multiples of "
     "the stride",
     "thesis §3.4.1, Fig. 3.5; temporal modes §3.4.2", true, directives(),
     [] { return std::make_unique<SimpleStridedModule>(); }}})
