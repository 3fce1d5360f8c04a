#pragma once
/// ModuleReps as written: a count, or `auto` with a target and a time cap
/// (docs/reference/configuration.md, "ModuleReps auto"), as google/benchmark's and hyperfine's
/// adaptive runs repeat.

#include <string>
#include <vector>

namespace pio::harness {

/// What a ModuleReps line asks for.
struct RepsSetting {
  long reps = 1;          ///< the count; auto: the most repetitions
  bool automatic = false; ///< auto: repeat until the median's interval is within target
  double target = 0.05;   ///< auto: the interval's half-width over the median (+-5 %)
  double time_cap_s = 60; ///< auto: seconds per test at most
};

/// The fewest repetitions `ModuleReps auto` runs: the fewest that give a 95 % interval of the
/// median from order statistics (the smallest and largest of 6: coverage 1 - 2/2^6 = 96.9 %).
inline constexpr long kAutoRepsMin = 6;
/// The most repetitions `ModuleReps auto` runs.
inline constexpr long kAutoRepsMax = 1000;

/// The repetitions a plan counts on for a block: ModuleReps, or under `ModuleReps auto` its
/// fewest (its count is known only as it runs): a time-driven block's share of SuiteTime per
/// repetition, the progress estimate.
inline long planned_reps(long reps, bool automatic) { return automatic ? kAutoRepsMin : reps; }

/// Parses the words after ModuleReps: "<n>" (1 to 1e6), or "auto" followed by at most a target
/// "<p>%" (0.1 to 50) and a cap "<s>" or "<s>s" seconds (0.1 to 86400), in either order. Throws
/// pio::Error naming what is wrong.
RepsSetting parse_module_reps(const std::vector<std::string> &words);

} // namespace pio::harness
