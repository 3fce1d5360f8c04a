// Steadiness of a test's figure over its repetitions (steadiness.hpp).
#include "run/steadiness.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/binomial.hpp>

#include "config/module_reps.hpp"
#include "run/stats.hpp"

namespace pio::harness {

std::optional<MedianInterval> median_interval(int n, double level) {
  if (n < 1)
    return std::nullopt;
  const boost::math::binomial_distribution<double> b(n, 0.5);
  std::optional<MedianInterval> best;
  for (int j = 1; 2 * j <= n + 1; ++j) {
    const double coverage = 1 - 2 * boost::math::cdf(b, j - 1);
    if (coverage + 1e-12 < level)
      break;
    best = MedianInterval{j, coverage};
  }
  return best;
}

Steadiness steadiness_of(const std::vector<double> &values) {
  Steadiness s;
  s.count = static_cast<int>(values.size());
  if (values.empty())
    return s;
  const Stats st = summarize(values);
  s.median = st.median;
  s.cv = values.size() > 1 && st.mean != 0 ? st.stddev / std::fabs(st.mean) : 0;
  if (st.median != 0) {
    s.min_over_median = st.min / st.median;
    s.max_over_median = st.max / st.median;
  }
  if (const auto mi = median_interval(s.count)) {
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    s.ci_low = sorted[static_cast<size_t>(mi->j - 1)];
    s.ci_high = sorted[static_cast<size_t>(s.count - mi->j)];
    s.ci_level = mi->coverage;
    if (st.median != 0)
      s.ci_half_width =
          std::max(st.median - *s.ci_low, *s.ci_high - st.median) / std::fabs(st.median);
  }
  return s;
}

bool is_bimodal(const std::vector<double> &values) {
  const int n = static_cast<int>(values.size());
  if (n < 6 || std::any_of(values.begin(), values.end(), [](double v) { return !(v > 0); }))
    return false;
  // On a log scale: rates and times are reciprocals, their noise multiplies.
  std::vector<double> x;
  for (double v : values)
    x.push_back(std::log(v));
  std::sort(x.begin(), x.end());
  const int side = std::max(2, (n + 4) / 5);
  for (int k = side; k <= n - side; ++k) {
    const double gap = x[static_cast<size_t>(k)] - x[static_cast<size_t>(k - 1)];
    const double spread = std::max(x[static_cast<size_t>(k - 1)] - x[0],
                                   x[static_cast<size_t>(n - 1)] - x[static_cast<size_t>(k)]);
    if (gap > kBimodalGap * spread && gap > std::log1p(kBimodalMinGap))
      return true;
  }
  return false;
}

std::optional<RepsStop> auto_reps_stop(const std::vector<double> &figures, double target,
                                       double elapsed_s, double time_cap_s, long max_reps) {
  const long n = static_cast<long>(figures.size());
  if (n >= kAutoRepsMin) {
    const Steadiness s = steadiness_of(figures);
    if (s.ci_low && s.ci_half_width <= target)
      return RepsStop::Target;
  }
  if (n >= max_reps)
    return RepsStop::MaxReps;
  if (elapsed_s >= time_cap_s)
    return RepsStop::TimeCap;
  return std::nullopt;
}

} // namespace pio::harness
