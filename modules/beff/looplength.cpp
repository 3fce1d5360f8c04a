#include "looplength.hpp"

#include <algorithm>
#include <cmath>

namespace pio::b_eff {

std::int64_t next_looplength(std::int64_t prev_looplength, double prev_time_s, double length_ratio,
                             const LoopRule &rule) {
  if (prev_time_s <= 0 || prev_looplength <= 0)
    return std::max<std::int64_t>(1, rule.initial);
  const double per_iteration =
      prev_time_s / static_cast<double>(prev_looplength) * std::max(length_ratio, 1.0);
  // A relative 1e-9 keeps exact quotients (5 ms / 40 us = 125) from rounding down.
  const double fits = std::floor(rule.max_time_s / per_iteration * (1 + 1e-9));
  const double capped = std::min(fits, static_cast<double>(rule.initial));
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(capped));
}

} // namespace pio::b_eff
