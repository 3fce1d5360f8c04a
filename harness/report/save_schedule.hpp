#pragma once
/// When a results file is rewritten during a run (docs/reference/reliability.md). Rewriting the
/// whole document after every test costs time that grows with the run (b_eff's 3600 tests spent
/// most of their run rewriting its JSON), so a rewrite is due after every test only while the
/// document is small (decided by its size, not by a clock a loaded machine makes noisy);
/// beyond that once the time since the last rewrite is kRatio times its cost, which keeps
/// rewrites under 1/kRatio of the run and a crash losing at most that window's tests.

#include <chrono>
#include <cstddef>

namespace pio::harness {

/// Decides whether an incremental rewrite is due, from what the last one cost.
class SaveSchedule {
public:
  using Clock = std::chrono::steady_clock;
  /// A document smaller than this (a few hundred tests) is rewritten after every test.
  static constexpr std::size_t kSmallBytes = 1 << 20;
  /// Otherwise rewrites take at most 1/kRatio of the run.
  static constexpr double kRatio = 20;

  /// Whether a rewrite at `now` is due.
  bool due(Clock::time_point now) const;
  /// Records a rewrite of `bytes` that ran from `start` to `end`.
  void saved(Clock::time_point start, Clock::time_point end, std::size_t bytes);

private:
  bool any_ = false;
  Clock::time_point last_end_{};
  double last_cost_ = 0;
  std::size_t last_bytes_ = 0;
};

/// Runs `save` (returning the bytes written) if `schedule` says it is due (or `force`), and
/// records what it cost.
template <class F> void save_when_due(SaveSchedule &schedule, bool force, F &&save) {
  const auto start = SaveSchedule::Clock::now();
  if (!force && !schedule.due(start))
    return;
  const std::size_t bytes = save();
  schedule.saved(start, SaveSchedule::Clock::now(), bytes);
}

} // namespace pio::harness
