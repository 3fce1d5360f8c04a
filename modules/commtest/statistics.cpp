// COMMTEST description, results section:
//   b = (min T_N) / (total number of bytes sent),  a = (T_N2 - T_N1) / (N2 - N1),
//   "Typically we use N2 = 1024 and N1 = 512 ... different choices are made if T1024 or T512
//   is not representative" (here: directives N1, N2; if either was not measured, the two
//   largest measured N).
//   Unordered: latency a, swap bandwidth 2/b, busy bandwidth half of it.
//   Ordered: "the number of sends and data volume need to be doubled", latency a/2, idle
//   bandwidth 2/b (also the swap bandwidth).
//   Model: a * (number of messages) + b * (total number of bytes sent), against the data, over
//   all of it or a subset ("the model error may be calculated on a subset of the data").
#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace commtest {

SeriesStats series_stats(const std::vector<Timing> &timings, std::int64_t volume, bool ordered,
                         const StatsChoice &choice) {
  SeriesStats s;
  std::map<std::int64_t, double> t; // N -> T_N (the smallest when N appears twice)
  for (const auto &x : timings)
    if (x.seconds > 0 && (!t.count(x.messages) || x.seconds < t[x.messages]))
      t[x.messages] = x.seconds;
  if (t.empty() || volume <= 0)
    return s;
  double tmin = t.begin()->second;
  for (const auto &kv : t)
    tmin = std::min(tmin, kv.second);
  s.b = tmin / static_cast<double>(volume);
  s.swap_Bps = 2.0 / s.b;
  if (ordered)
    s.idle_Bps = 2.0 / s.b;
  else
    s.busy_Bps = 1.0 / s.b;

  std::int64_t n1 = choice.n1, n2 = choice.n2;
  if (!t.count(n1) || !t.count(n2) || n1 == n2) {
    if (t.size() < 2)
      return s;
    n2 = t.rbegin()->first;
    n1 = std::next(t.rbegin())->first;
    s.substituted = true;
  }
  s.n1 = n1;
  s.n2 = n2;
  s.a = (t[n2] - t[n1]) / static_cast<double>(n2 - n1);
  s.latency_s = ordered ? *s.a / 2 : *s.a;

  double sum = 0, worst = 0;
  int points = 0;
  for (const auto &kv : t) {
    if (!choice.model.empty() &&
        std::find(choice.model.begin(), choice.model.end(), kv.first) == choice.model.end())
      continue;
    const double model = *s.a * static_cast<double>(kv.first) + s.b * static_cast<double>(volume);
    const double err = std::fabs(model - kv.second) / kv.second;
    sum += err;
    worst = std::max(worst, err);
    ++points;
  }
  if (points > 0) {
    s.model_error_mean = sum / points;
    s.model_error_max = worst;
    s.model_points = points;
  }
  return s;
}

} // namespace commtest
