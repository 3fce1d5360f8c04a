#include "averaging.hpp"

#include <algorithm>
#include <cmath>

#include "pio/error.hpp"

namespace pio::b_eff {

double bandwidth(std::int64_t length, std::int64_t messages, std::int64_t looplength,
                 double max_time_s) {
  if (max_time_s <= 0)
    return 0;
  return static_cast<double>(length) * static_cast<double>(messages) *
         static_cast<double>(looplength) / max_time_s;
}

double logavg(const std::vector<double> &v) {
  if (v.empty())
    throw Error("b_eff: logarithmic average of no values", "measure at least one pattern");
  double sum = 0;
  for (double x : v) {
    if (!(x > 0))
      throw Error("b_eff: logarithmic average of a value <= 0",
                  "a pattern was not measured at every message length");
    sum += std::log(x);
  }
  return std::exp(sum / static_cast<double>(v.size()));
}

Curves empty_curves(size_t patterns, size_t lengths, size_t methods) {
  Curves c;
  c.best.assign(patterns, std::vector<double>(lengths, 0.0));
  c.by_method.assign(methods, c.best);
  return c;
}

void record(Curves &c, int pattern, int length, int method, double b) {
  auto &best = c.best.at(static_cast<size_t>(pattern)).at(static_cast<size_t>(length));
  best = std::max(best, b);
  auto &m = c.by_method.at(static_cast<size_t>(method))
                .at(static_cast<size_t>(pattern))
                .at(static_cast<size_t>(length));
  m = std::max(m, b);
}

namespace {

/// logavg over the patterns of `family` of value(p); 0 when the family has none.
template <class F>
double family_logavg(const std::vector<PatternInfo> &patterns, Family family, F value) {
  std::vector<double> v;
  for (size_t p = 0; p < patterns.size(); ++p)
    if (patterns[p].family == family)
      v.push_back(value(p));
  return v.empty() ? 0.0 : logavg(v);
}

/// logavg of the two family averages, or the one that exists.
double combine(double rings, double random, bool has_rings, bool has_random) {
  if (has_rings && has_random)
    return logavg({rings, random});
  return has_rings ? rings : random;
}

} // namespace

Summary summarize(const std::vector<PatternInfo> &patterns,
                  const std::vector<std::vector<double>> &best, const std::vector<bool> &measured) {
  Summary s;
  for (const auto &p : patterns) {
    s.has_rings = s.has_rings || p.family == Family::Ring;
    s.has_random = s.has_random || p.family == Family::Random;
  }
  const size_t nl = measured.size();
  for (bool m : measured)
    s.lengths_measured += m ? 1 : 0;
  s.pattern_average.assign(patterns.size(), 0.0);
  for (size_t p = 0; p < patterns.size(); ++p) {
    double sum = 0;
    for (size_t l = 0; l < nl; ++l)
      if (measured[l])
        sum += best.at(p).at(l);
    s.pattern_average[p] = s.lengths_measured ? sum / s.lengths_measured : 0.0;
  }
  auto avg = [&](size_t p) { return s.pattern_average[p]; };
  s.rings = family_logavg(patterns, Family::Ring, avg);
  s.random = family_logavg(patterns, Family::Random, avg);
  s.b_eff = combine(s.rings, s.random, s.has_rings, s.has_random);
  s.b_eff_at.assign(nl, 0.0);
  s.rings_at.assign(nl, 0.0);
  s.random_at.assign(nl, 0.0);
  for (size_t l = 0; l < nl; ++l) {
    if (!measured[l])
      continue;
    auto at = [&](size_t p) { return best.at(p).at(l); };
    s.rings_at[l] = family_logavg(patterns, Family::Ring, at);
    s.random_at[l] = family_logavg(patterns, Family::Random, at);
    s.b_eff_at[l] = combine(s.rings_at[l], s.random_at[l], s.has_rings, s.has_random);
  }
  return s;
}

} // namespace pio::b_eff
