// The b_eff_io time schedule (b_eff_io paper §5.1, §5.4).
#include "schedule.hpp"

#include <algorithm>
#include <cmath>

namespace pio::beff_io {

double pattern_budget(double scheduled_time, int units, int sum_units) {
  if (sum_units <= 0)
    return 0;
  return scheduled_time / 3.0 * static_cast<double>(units) / static_cast<double>(sum_units);
}

double original_budget(double scheduled_time, int partitions, int units, int sum_units) {
  if (sum_units <= 0 || partitions <= 0)
    return 0;
  return scheduled_time / partitions * static_cast<double>(units) / static_cast<double>(sum_units);
}

double catch_up_budget(double nominal, double debt) {
  return std::clamp(nominal - debt, kMinimumBudgetShare * nominal, nominal);
}

std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

void RunningSchedule::start(int partition, double now) { start_.emplace(partition, now); }

double RunningSchedule::elapsed(int partition, double now) const {
  auto it = start_.find(partition);
  return it == start_.end() ? 0.0 : now - it->second;
}

double RunningSchedule::next_loop(int partition, double nominal, double budget, double now) {
  // Every pattern of every method is scheduled T/3*U/ΣU (§5.1); the partition keeps to T by
  // taking what it is behind that schedule (the syncs that end write loops, the last batch of
  // each loop, opens and closes, size-driven types 3 and 4) off the next time-driven loop.
  double &so_far = so_far_[partition];
  if (budget > 0)
    budget = catch_up_budget(budget, elapsed(partition, now) - so_far);
  so_far += nominal;
  return budget;
}

std::int64_t segment_repetitions(int units, const std::vector<ChunkMeasurement> &measured) {
  // Average the time a chunk costs (in time units) over the types, not the rate: averaging
  // rates would let the fastest type (often the scattering type 0) size the segment and make
  // the segmented patterns overrun their share of T by the ratio of the speeds.
  double time_per_chunk = 0;
  int count = 0;
  for (const auto &m : measured) {
    if (m.chunks <= 0 || m.U <= 0)
      continue;
    time_per_chunk += static_cast<double>(m.U) / static_cast<double>(m.chunks);
    ++count;
  }
  if (count == 0 || units <= 0)
    return 1;
  time_per_chunk /= count;
  const double reps = std::ceil(static_cast<double>(units) / time_per_chunk - 1e-9);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(reps));
}

std::int64_t original_segment_repetitions(const SegmentInputs &in) {
  // b_eff_io 2.1: rep3 = min(rep0 * L/l, min(10 * rep1, rep2)), the type 1 calls counting ten
  // times (shared-pointer writes of one chunk are the slowest).
  std::optional<std::int64_t> reps;
  const auto take = [&](std::optional<std::int64_t> v) {
    if (v && (!reps || *v < *reps))
      reps = v;
  };
  take(in.type0_chunks);
  take(in.type1_calls ? std::optional<std::int64_t>(10 * *in.type1_calls) : std::nullopt);
  take(in.type2_calls);
  return std::max<std::int64_t>(1, reps.value_or(1));
}

std::int64_t segment_size(const std::vector<std::pair<std::int64_t, std::int64_t>> &l_and_reps) {
  std::int64_t sum = 0;
  for (const auto &[l, reps] : l_and_reps)
    sum += l * reps;
  return std::max(kSegmentAlign, round_up(sum, kSegmentAlign));
}

Segment size_segment(const std::vector<Pattern> &patterns, const std::vector<Pattern> &table,
                     const std::map<int, std::int64_t> &measured, std::int64_t fixed_units,
                     Definition definition, const std::vector<std::int64_t> &cap) {
  Segment seg;
  seg.units.assign(patterns.size(), 1);
  std::vector<std::pair<std::int64_t, std::int64_t>> l_and_reps;
  for (size_t i = 0; i < patterns.size(); ++i) {
    const Pattern &p = patterns[i];
    if (p.fill)
      continue;
    if (p.U > 0) {
      if (fixed_units > 0) {
        seg.units[i] = fixed_units;
      } else if (definition == Definition::Original) {
        // b_eff_io 2.1: the type 0 pattern with the same l (pattern 2, l = 1 MB with L = 2 MB,
        // has no counterpart), 10 x the type 1 one, the type 2 one.
        SegmentInputs in;
        for (const auto &q : table) {
          if (q.type > 2 || q.chunk != p.chunk || q.U <= 0 || q.number == 2 ||
              !measured.count(q.number))
            continue;
          const std::int64_t calls = measured.at(q.number);
          if (q.type == 0)
            in.type0_chunks = calls * (q.L / q.l);
          else if (q.type == 1)
            in.type1_calls = calls;
          else
            in.type2_calls = calls;
        }
        seg.units[i] = original_segment_repetitions(in);
      } else {
        std::vector<ChunkMeasurement> ms;
        for (const auto &q : table)
          if (q.type <= 2 && q.chunk == p.chunk && q.U > 0 && measured.count(q.number))
            ms.push_back({measured.at(q.number) * (q.L / q.l), q.U});
        seg.units[i] = segment_repetitions(p.U, ms);
      }
      if (i < cap.size() && cap[i] > 0)
        seg.units[i] = std::min(seg.units[i], cap[i]);
    }
    l_and_reps.emplace_back(p.l, seg.units[i]);
  }
  seg.size = segment_size(l_and_reps);
  for (const auto &[l, r] : l_and_reps)
    seg.used += l * r;
  return seg;
}

} // namespace pio::beff_io
