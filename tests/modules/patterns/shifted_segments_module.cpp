// A pattern as an author out of tree writes it (installed headers only), with a deliberate
// fault: in every work unit rank r's block starts Shift bytes before the end of rank r - 1's, so
// neighbouring ranks share Shift bytes (Shift 0: no overlap). The engine must refuse it in the
// writing modes before any I/O and run it in the read modes (test_write_overlap.cpp).
#include <memory>
#include <vector>

#include <pio/patterns/pattern_module.hpp>
#include <pio/pio.hpp>

namespace {

class Shifted : public pio::patterns::Geometry {
public:
  Shifted(std::int64_t block, std::int64_t shift, int ranks)
      : block_(block), shift_(shift), ranks_(ranks) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return {{unit * ranks_ * block_ + rank * (block_ - shift_), block_}};
  }

private:
  std::int64_t block_, shift_;
  int ranks_;
};

class ShiftedSegments : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    const std::int64_t block = ctx.settings.size("BlockSize");
    return {{pattern_spec(pio::format_size(block), block),
             std::make_shared<Shifted>(block, ctx.settings.size("Shift"), ctx.size)}};
  }
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("shifted_segments", pio::make_module<ShiftedSegments>);
  m.title = "Shifted Segments";
  m.summary = "test module: neighbouring ranks share Shift bytes of every work unit";
  m.directives = pio::patterns::pattern_directives("2");
  m.directives.push_back(
      pio::DirectiveSpec{"BlockSize", pio::DirectiveType::Size, "4K", "bytes per rank per unit"}
          .at_least(2));
  m.directives.push_back(pio::DirectiveSpec{"Shift", pio::DirectiveType::Size, "1",
                                            "bytes each rank's block overlaps the previous rank's"}
                             .at_least(0));
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
