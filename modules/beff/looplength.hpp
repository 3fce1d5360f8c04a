#pragma once
/// The looplength rule of b_eff (b_eff paper §4): "looplength = 300 for the shortest message.
/// The looplength is reduced dynamically to achieve a execution time for each loop between 2.5
/// and 5 msec. The minimum looplength is 1."

#include <cstdint>

namespace pio::b_eff {

/// The rule's constants (directives Looplength and LoopTime scale them).
struct LoopRule {
  std::int64_t initial = 300; ///< looplength of the shortest message, and the largest used
  double max_time_s = 5e-3;   ///< a loop should take between max_time_s / 2 and max_time_s
};

/// The looplength of the next measurement of a pattern and method, from the previous one:
/// prev_looplength iterations took prev_time_s (maximum over processes) with messages
/// length_ratio times shorter than the next. The time of one iteration is predicted as
/// prev_time_s / prev_looplength * length_ratio (bandwidth-bound: never too short), and the
/// looplength is the largest whose loop stays within max_time_s - so a loop lands between
/// max_time_s / 2 and max_time_s whenever one iteration takes less than max_time_s / 2 - clamped
/// to [1, initial]. Without a previous measurement (prev_time_s <= 0): initial.
std::int64_t next_looplength(std::int64_t prev_looplength, double prev_time_s, double length_ratio,
                             const LoopRule &rule);

} // namespace pio::b_eff
