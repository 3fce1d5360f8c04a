#pragma once
/// The COMMTEST statistics (COMMTEST description, the results section): b = (min T_N) / (total
/// bytes), a = (T_N2 - T_N1) / (N2 - N1), latency and bandwidths per protocol class, and the
/// error of the linear model a * (messages) + b * (bytes).

#include <cstdint>
#include <optional>
#include <vector>

namespace commtest {

/// T_N: the time of one SWAP of the volume in N messages (max over the pair's processes).
struct Timing {
  std::int64_t messages = 0; ///< N
  double seconds = 0;        ///< T_N
};

/// Which N the statistics use.
struct StatsChoice {
  std::int64_t n1 = 512;           ///< N1 of a
  std::int64_t n2 = 1024;          ///< N2 of a
  std::vector<std::int64_t> model; ///< N over which the model error is computed; empty = all
};

/// The statistics of one series (one protocol, variant, way, pairing and experiment).
struct SeriesStats {
  double b = 0;                    ///< seconds per byte: (min T_N) / volume
  std::optional<double> a;         ///< seconds per message: (T_N2 - T_N1) / (N2 - N1)
  std::int64_t n1 = 0, n2 = 0;     ///< the N a was computed from
  bool substituted = false;        ///< N1 or N2 was not measured: the two largest N were used
  std::optional<double> latency_s; ///< unordered: a; ordered: a / 2
  double swap_Bps = 0;             ///< 2 / b (both classes)
  std::optional<double> busy_Bps;  ///< unordered: half the swap bandwidth, 1 / b
  std::optional<double> idle_Bps;  ///< ordered: 2 / b
  /// Relative error |a * N + b * volume - T_N| / T_N over the model's points: mean and maximum.
  std::optional<double> model_error_mean, model_error_max;
  int model_points = 0; ///< points the model error covers
};

/// Computes the statistics of a series measured with `volume` bytes per processor.
/// Needs at least one timing with T_N > 0; a and the model need two distinct N.
SeriesStats series_stats(const std::vector<Timing> &timings, std::int64_t volume, bool ordered,
                         const StatsChoice &choice);

} // namespace commtest
