#include "lengths.hpp"

#include <algorithm>
#include <cmath>

#include "pio/error.hpp"

namespace pio::b_eff {

std::int64_t lmax_rule(std::int64_t memory_per_process, bool int_is_narrow) {
  std::int64_t lmax = memory_per_process / 128;
  if (int_is_narrow)
    lmax = std::min(lmax, kLmaxCap32);
  return std::max(lmax, kFixedMax);
}

std::vector<std::int64_t> message_lengths(std::int64_t lmax) {
  if (lmax < kFixedMax)
    throw Error("b_eff: L_max " + std::to_string(lmax) + " is below 4 kB",
                "set Lmax to 4K or more (b_eff paper §4: the variable lengths run from 4 kB to "
                "L_max)");
  std::vector<std::int64_t> out;
  for (int i = 0; i < kFixedLengths; ++i)
    out.push_back(std::int64_t{1} << i);
  const int variable = kLengths - kFixedLengths;
  const double a =
      std::pow(static_cast<double>(lmax) / static_cast<double>(kFixedMax), 1.0 / variable);
  double l = static_cast<double>(kFixedMax);
  for (int k = 1; k <= variable; ++k) {
    l *= a;
    out.push_back(k == variable ? lmax : static_cast<std::int64_t>(std::llround(l)));
  }
  return out;
}

} // namespace pio::b_eff
