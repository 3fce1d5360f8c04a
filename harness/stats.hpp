#pragma once
/// Summary statistics over repetitions or ranks.

#include <vector>

#include <nlohmann/json.hpp>

namespace pio::harness {

/// min / max / mean / sample standard deviation of a series.
struct Summary {
  double min = 0, max = 0, mean = 0, stddev = 0;
  int count = 0;
};

/// Summarises values (all zero for an empty series).
Summary summarize(const std::vector<double> &values);

/// {"min":..,"max":..,"mean":..,"stddev":..,"count":..}
nlohmann::json to_json(const Summary &s);

} // namespace pio::harness
