// Test-only module (test_unit_plan.cpp): the pattern engine around a Geometry that counts the
// calls of extents() made while the harness runs the unit loop's methods (before_work_unit,
// work_unit, after_work_unit). Rank r's unit u is 4 KiB at (u * P + r) * 4 KiB. after_work_unit
// fails the test as soon as the Geometry was asked there: the engine plans the units' extents
// in describe_test, before the loop (unit_plan.hpp), not between units inside the other ranks'
// timed units.
#include <memory>
#include <string>
#include <vector>

#include <pio/patterns/pattern_module.hpp>
#include <pio/pio.hpp>

namespace {

bool g_in_loop = false; // inside one of the unit loop's methods
long g_asked = 0;       // extents() calls made there

class Counted : public pio::patterns::Geometry {
public:
  explicit Counted(int ranks) : ranks_(ranks) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    g_asked += g_in_loop ? 1 : 0;
    return {{(unit * ranks_ + rank) * 4096, 4096}};
  }

private:
  int ranks_;
};

class Pattern : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    return {{pattern_spec("4K", 4096), std::make_shared<Counted>(ctx.size)}};
  }
};

/// Sets g_in_loop for the call of f.
template <class F> auto in_loop(F &&f) {
  g_in_loop = true;
  struct Reset {
    ~Reset() { g_in_loop = false; }
  } reset;
  return f();
}

class AskedGeometry : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    return inner_.init_module(ctx);
  }
  void describe_test(pio::TestContext &t) override {
    g_asked = 0;
    inner_.describe_test(t);
  }
  void before_work_unit(pio::UnitContext &u) override {
    in_loop([&] { inner_.before_work_unit(u); });
  }
  std::int64_t work_unit(pio::UnitContext &u) override {
    return in_loop([&] { return inner_.work_unit(u); });
  }
  void after_work_unit(pio::UnitContext &u) override {
    in_loop([&] { inner_.after_work_unit(u); });
    if (g_asked > 0)
      throw pio::Error("the Geometry was asked for extents " + std::to_string(g_asked) +
                           " times in the unit loop, up to unit " + std::to_string(u.unit),
                       "plan the units' extents before the loop");
  }
  void cleanup_test(pio::TestContext &t) override { inner_.cleanup_test(t); }

private:
  Pattern inner_;
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("test_asked_geometry", pio::make_module<AskedGeometry>);
  m.summary = "test only: fails when the engine asks the Geometry for extents in the unit loop";
  m.reference = "tests/modules/patterns";
  m.directives = pio::patterns::pattern_directives("6");
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
