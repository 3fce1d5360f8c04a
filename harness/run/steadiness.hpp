#pragma once
/// How steady a test's figure is over its repetitions (docs/reference/results.md, "Steadiness"):
/// spread, the distribution-free interval of the median, bimodal repetitions, and when `ModuleReps
/// auto` may stop repeating. Pure functions over the repetitions' figures.

#include <optional>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// The coverage sought for the median's interval.
inline constexpr double kMedianIntervalLevel = 0.95;

/// The order statistics (1-based j, so the interval is x_(j) .. x_(n+1-j)) of the narrowest
/// distribution-free interval of the median of n values whose coverage, 1 - 2 P(B <= j - 1) for
/// B ~ Binomial(n, 1/2) (Boost.Math), is at least `level`, and that coverage; nothing below 6
/// values at 0.95.
struct MedianInterval {
  int j = 0;
  double coverage = 0;
};
std::optional<MedianInterval> median_interval(int n, double level = kMedianIntervalLevel);

/// CV, min and max over the median, and the median's interval of `values`.
Steadiness steadiness_of(const std::vector<double> &values);

/// Whether `values` (all above 0) fall into two separate groups: on a log scale, sorted, some
/// split leaves at least max(2, n/5) values on each side with a gap between them larger than
/// kBimodalGap times the wider side's range and than a factor 1 + kBimodalMinGap. Needs 6
/// values or more.
bool is_bimodal(const std::vector<double> &values);
inline constexpr double kBimodalGap = 2.0;
inline constexpr double kBimodalMinGap = 0.10;

/// ModuleReps auto: why to stop after the repetitions so far (`figures`), `elapsed_s` into the
/// test, or nothing to run another. Stops when the median's interval is within +-`target` of the
/// median (at least kAutoRepsMin repetitions), at `time_cap_s`, or at `max_reps`.
std::optional<RepsStop> auto_reps_stop(const std::vector<double> &figures, double target,
                                       double elapsed_s, double time_cap_s, long max_reps);

} // namespace pio::harness
