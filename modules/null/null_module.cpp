// null: no I/O. A work unit optionally sleeps on one rank (or all), so the timing method of the
// pio-bench thesis §3.2.1 (Fig. 3.3) can be checked: a delay on one rank must appear in the
// aggregate time and in the maximum over ranks, not in the minimum. Also measures the harness's
// own cost per unit.
#include <chrono>
#include <thread>

#include "pio/pio.hpp"

namespace {

class NullModule : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    delay_ = ctx.settings.real("DelayMs") / 1000.0;
    delay_rank_ = ctx.settings.integer("DelayRank");
    if (delay_rank_ >= ctx.size)
      throw pio::Error("DelayRank " + std::to_string(delay_rank_) +
                           " is not a rank of this run (0.." + std::to_string(ctx.size - 1) + ")",
                       "use -1 for every rank or a rank below the process count");
    pio::TestSpec t;
    t.label = "null";
    t.file = pio::FileUse::None;
    t.phases[0].work_units = ctx.settings.integer("WorkUnits");
    t.phases[0].time_budget_s =
        ctx.time_budget_s > 0 ? ctx.time_budget_s : ctx.settings.real("TimeBudget");
    t.params = {{"delay_ms", std::to_string(delay_ * 1000)},
                {"delay_rank", std::to_string(delay_rank_)}};
    return {t};
  }
  void describe_test(pio::TestContext &test) override { rank_ = test.rank; }
  std::int64_t work_unit(pio::UnitContext &) override {
    if (delay_ > 0 && (delay_rank_ == -1 || delay_rank_ == rank_))
      std::this_thread::sleep_for(std::chrono::duration<double>(delay_));
    return 0;
  }

private:
  double delay_ = 0;
  std::int64_t delay_rank_ = -1;
  int rank_ = 0;
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("null", pio::make_module<NullModule>);
  m.title = "Null";
  m.summary = "no I/O; an optional delay per work unit on one rank (tests the timing method)";
  m.reference = "pio-bench thesis §3.2.1, Fig. 3.3";
  m.directives = {
      pio::DirectiveSpec{"WorkUnits", pio::DirectiveType::Integer, "10",
                         "work units per repetition"}
          .at_least(1),
      pio::DirectiveSpec{"DelayMs", pio::DirectiveType::Real, "0",
                         "milliseconds each work unit sleeps"}
          .at_least(0),
      pio::DirectiveSpec{"DelayRank", pio::DirectiveType::Integer, "-1",
                         "rank that sleeps (-1 = every rank)"}
          .at_least(-1),
      pio::DirectiveSpec{"TimeBudget", pio::DirectiveType::Real, "0",
                         "seconds: run units until spent (time-driven, b_eff_io paper §5.4); "
                         "0 = WorkUnits units"}
          .at_least(0)};
  m.time_directive = "TimeBudget"; // a block without it takes a share of SuiteTime
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
