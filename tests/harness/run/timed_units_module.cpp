// Test-only module: work units that take a chosen time (a sleep), differently per repetition or
// on rank 0, with CPU burners beside them, so that each flag of docs/reference/results.md can be
// provoked and a clean run of the same size compared. No file.
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "pio/pio.hpp"

namespace {

class TimedUnits : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    unit_s_ = ctx.settings.real("UnitSeconds");
    root_s_ = ctx.settings.real("RootUnitSeconds");
    first_s_ = ctx.settings.real("FirstRepSeconds");
    if (ctx.settings.has("RepSeconds"))
      for (const auto &w : ctx.settings.texts("RepSeconds"))
        rep_s_.push_back(pio::parse_real(w));
    burners_ = static_cast<int>(ctx.settings.integer("BurnThreads"));
    spins_ = ctx.settings.flag("UnitSpins");
    burn_nice_ = static_cast<int>(ctx.settings.integer("BurnNice"));
    bytes_ = ctx.settings.integer("ReturnBytes");
    rank_ = ctx.rank;
    pio::TestSpec t;
    t.label = "t0";
    t.buffer_size = bytes_;
    t.file = pio::FileUse::None;
    t.phases[0].work_units = ctx.settings.integer("Units");
    return {t};
  }
  void describe_test(pio::TestContext &t) override { rep_ = t.rep; }
  std::int64_t work_unit(pio::UnitContext &) override {
    double s = rep_s_.empty() ? unit_s_ : rep_s_[static_cast<size_t>(rep_) % rep_s_.size()];
    if (rep_ == 0 && first_s_ >= 0)
      s = first_s_;
    if (rank_ == 0 && root_s_ >= 0)
      s = root_s_;
    std::atomic<bool> stop{false};
    std::vector<std::thread> burn;
    for (int i = 0; i < burners_; ++i)
      burn.emplace_back([&stop, nice = burn_nice_] {
        if (nice != 0) // Linux: a thread's own nice value
          ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice);
        volatile unsigned long x = 0;
        while (!stop.load(std::memory_order_relaxed))
          x = x + 1;
      });
    if (spins_) { // a unit that needs the CPU all along, as a transfer does
      const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(s);
      while (std::chrono::steady_clock::now() < end) {
      }
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(s));
    }
    stop = true;
    for (auto &b : burn)
      b.join();
    return bytes_;
  }

private:
  double unit_s_ = 0, root_s_ = -1, first_s_ = -1;
  std::vector<double> rep_s_;
  int burners_ = 0;
  bool spins_ = false;
  int burn_nice_ = 0;
  std::int64_t bytes_ = 0;
  int rank_ = 0, rep_ = 0;
};

pio::ModuleInfo timed_units_info() {
  pio::ModuleInfo m("test_timed_units", pio::make_module<TimedUnits>);
  m.summary = "test only: work units that sleep a chosen time, with optional CPU burners";
  m.reference = "tests/harness/run/test_flags.cpp";
  m.directives = {
      pio::DirectiveSpec{"UnitSeconds", pio::DirectiveType::Real, "0.01", "each unit's sleep"}
          .at_least(0),
      {"RootUnitSeconds", pio::DirectiveType::Real, "-1", "rank 0's sleep (-1: UnitSeconds)"},
      {"FirstRepSeconds", pio::DirectiveType::Real, "-1",
       "the first repetition's sleep (-1: as the others)"},
      {"RepSeconds", pio::DirectiveType::Texts, "", "sleeps per repetition, in turn"},
      pio::DirectiveSpec{"BurnThreads", pio::DirectiveType::Integer, "0",
                         "threads spinning beside each unit"}
          .at_least(0),
      pio::DirectiveSpec{"BurnNice", pio::DirectiveType::Integer, "0",
                         "the burners' nice value (19: they yield to everything else)"}
          .at_least(0)
          .at_most(19),
      {"UnitSpins", pio::DirectiveType::Flag, "off",
       "each unit spins its time instead of sleeping"},
      pio::DirectiveSpec{"ReturnBytes", pio::DirectiveType::Integer, "1048576",
                         "bytes each unit reports"}
          .at_least(0),
      pio::DirectiveSpec{"Units", pio::DirectiveType::Integer, "3", "work units per repetition"}
          .at_least(1)};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{timed_units_info()})
