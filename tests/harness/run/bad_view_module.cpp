// Test-only module: a strided pattern whose file view is one byte off its declared extents,
// so Verify (which reads back by explicit offsets) must report the first misplaced byte.
#include "pio/patterns/byte_types.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/pio.hpp"

namespace {

class OffByOne : public pio::patterns::Geometry {
public:
  explicit OffByOne(int size) : size_(size) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return {{(unit * size_ + rank) * 64, 64}};
  }
  pio::patterns::FileView view(int rank, std::int64_t unit) const override {
    return {(unit * size_ + rank) * 64 + 1, pio::patterns::contiguous_bytes(64)};
  }

private:
  int size_;
};

class BadView : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    return {{pattern_spec("64", 64), std::make_shared<OffByOne>(ctx.size)}};
  }
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("test_bad_view", pio::make_module<BadView>);
  m.summary = "test only: a view one byte off its extents";
  m.reference = "tests/core";
  m.directives = pio::patterns::pattern_directives("2");
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
