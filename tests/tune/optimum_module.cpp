// tune_optimum: a module built only for pio-tune's tests (never installed), whose speed depends
// on its directives in a known way: a work unit reports 1 MiB moved and sleeps
//   DelayMs x (1 + (log2(Chunk / 64K))^2 / 4) x {fast 1, medium 2, slow 3}[Shape]
// so the bandwidth is highest at Chunk 64K with Shape fast (one doubling or halving away costs
// 25 %, two 100 %), and Inert changes nothing (an A/A setting).
#include <chrono>
#include <cmath>
#include <thread>

#include "pio/pio.hpp"

namespace {

constexpr std::int64_t kBytes = 1 << 20;

class OptimumModule : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    const double chunk = static_cast<double>(ctx.settings.size("Chunk"));
    const std::string shape = ctx.settings.text("Shape");
    const double factor = shape == "fast" ? 1 : shape == "medium" ? 2 : 3;
    const double steps = std::log2(chunk / 65536.0);
    delay_s_ = ctx.settings.real("DelayMs") / 1000.0 * (1 + steps * steps / 4) * factor;
    pio::TestSpec t;
    t.label = "optimum";
    t.buffer_size = kBytes;
    t.file = pio::FileUse::None;
    t.phases[0].work_units = ctx.settings.integer("WorkUnits");
    t.params = {{"delay_s", std::to_string(delay_s_)}};
    return {t};
  }
  void describe_test(pio::TestContext &) override {}
  std::int64_t work_unit(pio::UnitContext &) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s_));
    return kBytes;
  }

private:
  double delay_s_ = 0;
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("tune_optimum", pio::make_module<OptimumModule>);
  m.title = "Tune optimum";
  m.summary = "test module: sleeps per unit by a known function of Chunk and Shape (best: 64K, "
              "fast); Inert has no effect";
  m.reference = "pio-tune's tests (tests/tune)";
  m.directives = {
      pio::DirectiveSpec{"Chunk", pio::DirectiveType::Size, "1K", "the tuned size"}.between(
          1024, 1 << 30),
      pio::DirectiveSpec{"Shape",
                         pio::DirectiveType::Text,
                         "slow",
                         "fast, medium or slow",
                         {"fast", "medium", "slow"}},
      pio::DirectiveSpec{"Inert", pio::DirectiveType::Flag, "off", "changes nothing"},
      pio::DirectiveSpec{"DelayMs", pio::DirectiveType::Real, "5", "sleep at the optimum"}.at_least(
          0),
      pio::DirectiveSpec{"WorkUnits", pio::DirectiveType::Integer, "3", "units per repetition"}
          .at_least(1)};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
