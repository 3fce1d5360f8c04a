// A complete pio-bench access pattern written against the installed SDK only: a Geometry and a
// directive list. The pattern engine (pio::patterns) runs it in all five temporal modes of the
// pio-bench thesis §3.4.2 (write, read, read-modify-write, re-read, re-write), independent or
// collective, through a file view or not, and checks every byte when Verify is on. Copy this
// file to start a pattern of your own.
//
// Each rank owns one contiguous segment of the shared file, WorkUnits x BlockSize bytes long;
// work unit u accesses the u-th block of it:
//
//   | header | rank 0: unit 0, unit 1, ... | rank 1: unit 0, unit 1, ... | ...
//   extent of rank r, unit u = HeaderOffset + (r * WorkUnits + u) * BlockSize, BlockSize bytes
#include <memory>
#include <vector>

#include <pio/patterns/pattern_module.hpp>
#include <pio/pio.hpp>

namespace {

/// Where each rank's bytes are in each work unit: the only thing a pattern must define.
class Segments : public pio::patterns::Geometry {
public:
  Segments(std::int64_t header, std::int64_t block, std::int64_t units)
      : header_(header), block_(block), units_(units) {}

  /// The file bytes `rank` accesses in `unit`, in the order they stream through memory.
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return {{header_ + (rank * units_ + unit) * block_, block_}};
  }

private:
  std::int64_t header_, block_, units_;
};

/// One test per BlockSizes entry. Mode, WorkUnits and HeaderOffset are the engine's directives,
/// already read: mode(), work_units(bytes per unit), header_offset().
class MySegments : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    std::vector<pio::patterns::PatternTest> tests;
    for (std::int64_t block : ctx.settings.sizes("BlockSizes"))
      tests.push_back({pattern_spec(pio::format_size(block), block),
                       std::make_shared<Segments>(header_offset(), block, work_units(block))});
    return tests;
  }
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("my_segments", pio::make_module<MySegments>);
  m.title = "My Segments"; // ModuleName "My Segments (read)" selects Mode read
  m.summary = "each rank accesses its own contiguous segment of the shared file";
  m.reference = "docs/guides/writing-a-module.md";
  // The engine's Mode, WorkUnits (default 4 here) and HeaderOffset, then our own. The harness
  // enforces the limit (BlockSizes 0 is a config error naming file:line) before any I/O.
  m.directives = pio::patterns::pattern_directives("4");
  m.directives.push_back(pio::DirectiveSpec{"BlockSizes", pio::DirectiveType::Sizes, "64K",
                                            "bytes per rank per work unit; one test per size"}
                             .at_least(1));
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
