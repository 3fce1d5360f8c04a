#pragma once
/// Summary statistics over repetitions or ranks.

#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// min / max / mean / median / sample standard deviation of a series (all zero when empty).
Stats summarize(const std::vector<double> &values);

} // namespace pio::harness
