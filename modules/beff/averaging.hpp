#pragma once
/// b_eff's averaging (b_eff paper §4): b(pat, L, mthd, rep), the maxima over repetitions and
/// methods, the average over the 21 message lengths, the logarithmic averages over the ring and
/// over the random patterns, and b_eff as the logarithmic average of the two.

#include <cstdint>
#include <string>
#include <vector>

#include "patterns.hpp"

namespace pio::b_eff {

/// What the averages need to know about a pattern.
struct PatternInfo {
  std::string name;             ///< e.g. "ring-1"
  Family family = Family::Ring; ///< which average it enters
  std::string layout;           ///< ring sizes or grid
  std::int64_t messages = 0;    ///< total number of messages of the pattern
  int participants = 0;         ///< ranks taking part
};

/// §4: b(pat, L, mthd, rep) = L * (total number of messages of pattern pat) * looplength /
/// (maximum time on each process for executing the pattern looplength times), in bytes/s; 0
/// when nothing was timed.
double bandwidth(std::int64_t length, std::int64_t messages, std::int64_t looplength,
                 double max_time_s);

/// exp(mean(log(v))): the logarithmic average of §4. Throws pio::Error when v is empty or holds
/// a value <= 0 (a pattern that was not measured).
double logavg(const std::vector<double> &v);

/// best[p][l]: max over methods and repetitions of b for pattern p and length index l (0 = not
/// measured); by_method[m][p][l]: the same for method m alone (max over repetitions).
struct Curves {
  std::vector<std::vector<double>> best;
  std::vector<std::vector<std::vector<double>>> by_method;
};

/// Curves for `patterns` x `lengths` x `methods`, all zero.
Curves empty_curves(size_t patterns, size_t lengths, size_t methods);
/// Records one b(pat, L, mthd, rep): the maxima over repetitions and methods (§4).
void record(Curves &c, int pattern, int length, int method, double b);

/// b_eff and its parts (bytes/s), from curves over the measured lengths.
struct Summary {
  double b_eff = 0;                    ///< logavg(rings, random) (or the one family measured)
  double rings = 0, random = 0;        ///< logavg over ring / random patterns of avg_L
  std::vector<double> pattern_average; ///< per pattern: sum_L(best) / lengths measured
  std::vector<double> b_eff_at, rings_at, random_at; ///< per length index: the same at one L
  int lengths_measured = 0; ///< lengths with a value for every averaged pattern (21 = valid)
  bool has_rings = false, has_random = false;
};

/// §4: b_eff = logavg(logavg_rings(sum_L(max_mthd(max_rep b)) / 21), logavg_random(...)).
/// `measured` says which length indices were measured; the average over lengths divides by
/// their number (21 for a valid b_eff).
Summary summarize(const std::vector<PatternInfo> &patterns,
                  const std::vector<std::vector<double>> &best, const std::vector<bool> &measured);

} // namespace pio::b_eff
