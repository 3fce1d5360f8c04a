// Test-only module: a strided pattern whose file view is one byte off its declared extents,
// so Verify (which reads back by explicit offsets) must report the first misplaced byte.
#include "common/byte_types.hpp"
#include "common/pattern_module.hpp"
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
  std::vector<pio::TestSpec> make_tests(const pio::ModuleContext &) override {
    pio::TestSpec t;
    t.label = "64";
    t.buffer_size = 64;
    t.phases[0].work_units = 2;
    return {t};
  }
  std::unique_ptr<pio::patterns::Geometry> make_geometry(const pio::TestContext &t) override {
    return std::make_unique<OffByOne>(t.size);
  }
};

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"test_bad_view", "", "test only: a view one byte off its extents", "tests/core", true,
     pio::patterns::pattern_directives(), [] { return std::make_unique<BadView>(); }}})
