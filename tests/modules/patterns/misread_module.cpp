// Test-only module (test_verify_timed.cpp): rank r's unit u is 64 bytes at (u * P + r) * 64,
// prepared correctly for a read mode, but the last rank reads its unit Unit through a file view
// one byte off, as a file system returning the wrong bytes would: its read's check must fail.
#include <memory>
#include <vector>

#include <pio/patterns/byte_types.hpp>
#include <pio/patterns/pattern_module.hpp>
#include <pio/pio.hpp>

namespace {

class Misread : public pio::patterns::Geometry {
public:
  Misread(int ranks, std::int64_t bad_unit) : ranks_(ranks), bad_unit_(bad_unit) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return {{(unit * ranks_ + rank) * 64, 64}};
  }
  pio::patterns::FileView view(int rank, std::int64_t unit) const override {
    const bool off = rank == ranks_ - 1 && unit == bad_unit_;
    return {(unit * ranks_ + rank) * 64 + (off ? 1 : 0), pio::patterns::contiguous_bytes(64)};
  }

private:
  int ranks_;
  std::int64_t bad_unit_;
};

class MisreadModule : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    return {{pattern_spec("64", 64),
             std::make_shared<Misread>(ctx.size, ctx.settings.integer("Unit"))}};
  }
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("test_misread", pio::make_module<MisreadModule>);
  m.summary = "test only: the last rank reads unit Unit one byte off its extents";
  m.reference = "tests/modules/patterns";
  m.directives = pio::patterns::pattern_directives("3");
  m.directives.push_back(
      pio::DirectiveSpec{"Unit", pio::DirectiveType::Integer, "1", "the unit read one byte off"}
          .at_least(0));
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
