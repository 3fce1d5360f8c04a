#include "run/op_latency.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pio::harness {

namespace {

constexpr unsigned kBins = 2200; // 11 decades, 200 a decade
constexpr double kLowest = 1e-8, kHighest = 1e3;

} // namespace

LatencyRecorder::LatencyRecorder()
    : bins_(boost::histogram::make_histogram_with(std::vector<std::uint64_t>(),
                                                  Axis(kBins, kLowest, kHighest))) {}

void LatencyRecorder::record(double seconds) {
  bins_(seconds);
  min_ = count_ == 0 ? seconds : std::min(min_, seconds);
  max_ = count_ == 0 ? seconds : std::max(max_, seconds);
  sum_ += seconds;
  ++count_;
}

void LatencyRecorder::clear() {
  bins_.reset();
  count_ = 0;
  sum_ = min_ = max_ = 0;
}

std::optional<OpLatencies> reduce_latencies(MPI_Comm all, const LatencyRecorder &mine) {
  std::int64_t count = 0;
  MPI_Allreduce(&mine.count_, &count, 1, MPI_INT64_T, MPI_SUM, all);
  if (count == 0)
    return std::nullopt;
  int rank = 0;
  MPI_Comm_rank(all, &rank);
  // Every bin, the under- and overflow ones included (indices -1 .. size).
  const int size = mine.bins_.axis().size();
  std::vector<std::uint64_t> local(static_cast<size_t>(size) + 2), merged(local.size());
  for (int i = -1; i <= size; ++i)
    local[static_cast<size_t>(i + 1)] = mine.bins_.at(i);
  MPI_Reduce(local.data(), merged.data(), static_cast<int>(local.size()), MPI_UINT64_T, MPI_SUM, 0,
             all);
  const double none = std::numeric_limits<double>::infinity();
  double sum = 0, lo = mine.count_ ? mine.min_ : none, hi = mine.count_ ? mine.max_ : -none;
  double min = 0, max = 0;
  MPI_Reduce(&mine.sum_, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, all);
  MPI_Reduce(&lo, &min, 1, MPI_DOUBLE, MPI_MIN, 0, all);
  MPI_Reduce(&hi, &max, 1, MPI_DOUBLE, MPI_MAX, 0, all);
  if (rank != 0)
    return std::nullopt;
  OpLatencies out;
  out.count = count;
  out.min_us = min * 1e6;
  out.max_us = max * 1e6;
  out.mean_us = sum / static_cast<double>(count) * 1e6;
  for (const double percent : kLatencyPercentiles) {
    // The bin holding the operation of rank ceil(percent % of count): its geometric centre,
    // within the exact minimum and maximum (the under- and overflow bins are those).
    const auto want = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(percent / 100.0 * static_cast<double>(count))));
    std::uint64_t seen = 0;
    double value = max;
    for (int i = -1; i <= size; ++i) {
      seen += merged[static_cast<size_t>(i + 1)];
      if (seen < want)
        continue;
      if (i < 0)
        value = min;
      else if (i < size) {
        const auto bin = mine.bins_.axis().bin(i);
        value = std::sqrt(bin.lower() * bin.upper());
      }
      break;
    }
    out.percentiles_us.push_back(std::clamp(value, min, max) * 1e6);
  }
  return out;
}

} // namespace pio::harness
