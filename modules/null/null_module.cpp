// null: no I/O. A work unit optionally sleeps on one rank (or all), so the timing method of
// DESIGN §4 can be checked: a delay on one rank must appear in the aggregate time and in the
// maximum over ranks, not in the minimum. Also measures the harness's own cost per unit.
#include <chrono>
#include <thread>

#include "pio/pio.hpp"

namespace {

class NullModule : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    delay_ = ctx.settings.real("DelayMs") / 1000.0;
    delay_rank_ = ctx.settings.integer("DelayRank");
    if (delay_ < 0)
      throw pio::Error("DelayMs " + std::to_string(delay_ * 1000) + " is negative",
                       "give a delay of 0 or more milliseconds");
    if (delay_rank_ < -1 || delay_rank_ >= ctx.size)
      throw pio::Error("DelayRank " + std::to_string(delay_rank_) +
                           " is not a rank of this run (0.." + std::to_string(ctx.size - 1) + ")",
                       "use -1 for every rank or a rank below the process count");
    pio::TestSpec t;
    t.label = "null";
    t.file = pio::FileUse::None;
    t.phases[0].work_units = ctx.settings.integer("WorkUnits");
    t.phases[0].time_budget_s = ctx.settings.real("TimeBudget");
    if (t.phases[0].work_units < 1)
      throw pio::Error("WorkUnits must be at least 1", "set WorkUnits 1 or more");
    if (t.phases[0].time_budget_s < 0)
      throw pio::Error("TimeBudget must not be negative", "give seconds, or 0 for WorkUnits");
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

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"null",
     "Null",
     "no I/O; an optional delay per work unit on one rank (tests the timing method)",
     "DESIGN §4; thesis §3.2.1, Fig. 3.3",
     false,
     {{"WorkUnits", pio::DirectiveType::Integer, "10", "work units per repetition"},
      {"DelayMs", pio::DirectiveType::Real, "0", "milliseconds each work unit sleeps"},
      {"DelayRank", pio::DirectiveType::Integer, "-1", "rank that sleeps (-1 = every rank)"},
      {"TimeBudget", pio::DirectiveType::Real, "0",
       "seconds: run units until spent (time-driven, b_eff_io §5.4); 0 = WorkUnits units"}},
     [] { return std::make_unique<NullModule>(); }}})
