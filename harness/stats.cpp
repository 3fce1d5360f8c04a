#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace pio::harness {

Summary summarize(const std::vector<double> &values) {
  Summary s;
  s.count = static_cast<int>(values.size());
  if (values.empty())
    return s;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double v : values)
    sum += v;
  s.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double sq = 0;
    for (double v : values)
      sq += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(values.size() - 1));
  }
  return s;
}

nlohmann::json to_json(const Summary &s) {
  return {
      {"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"stddev", s.stddev}, {"count", s.count}};
}

} // namespace pio::harness
