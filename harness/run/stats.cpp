#include "run/stats.hpp"

#include <algorithm>
#include <cmath>

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/max.hpp>
#include <boost/accumulators/statistics/mean.hpp>
#include <boost/accumulators/statistics/min.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/variance.hpp>

namespace pio::harness {

Stats summarize(const std::vector<double> &values) {
  namespace acc = boost::accumulators;
  Stats s;
  s.count = static_cast<int>(values.size());
  if (values.empty())
    return s;
  acc::accumulator_set<double, acc::stats<acc::tag::min, acc::tag::max, acc::tag::mean,
                                          acc::tag::variance(acc::lazy)>>
      a;
  for (double v : values)
    a(v);
  s.min = acc::min(a);
  s.max = acc::max(a);
  s.mean = acc::mean(a);
  // Boost's variance is the population variance; report the sample standard deviation.
  const double n = static_cast<double>(values.size());
  s.stddev = values.size() > 1 ? std::sqrt(acc::variance(a) * n / (n - 1)) : 0.0;
  // The exact median (Boost's median tag is a P^2 estimate, too coarse for a handful of reps).
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  s.median = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return s;
}

} // namespace pio::harness
