#include "run/measure.hpp"

#include <algorithm>

#include "run/stats.hpp"

namespace pio::harness {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double bandwidth(std::int64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / kMiB / seconds : 0.0;
}

/// Gathers one double per rank of `all` to its root.
std::vector<double> gather(MPI_Comm all, double mine) {
  int size = 1;
  MPI_Comm_size(all, &size);
  std::vector<double> v(static_cast<size_t>(size));
  MPI_Gather(&mine, 1, MPI_DOUBLE, v.data(), 1, MPI_DOUBLE, 0, all);
  return v;
}

} // namespace

std::vector<OpTimes> op_times(const std::vector<double> &own, const std::vector<int> &group_of,
                              int groups, std::int64_t units, const CommSemantics &comm) {
  std::vector<OpTimes> out;
  for (int g = 0; g < groups; ++g) {
    std::vector<double> t_us;
    for (size_t i = 0; i < own.size(); ++i)
      if (group_of[i] == g && units > 0 && comm.ops_per_unit > 0)
        t_us.push_back(own[i] / static_cast<double>(units) /
                       static_cast<double>(comm.ops_per_unit) * comm.time_scale * 1e6);
    OpTimes o;
    o.group = g;
    o.ranks = static_cast<int>(t_us.size());
    if (!t_us.empty()) {
      const Stats s = summarize(t_us);
      o.t_min_us = s.min;
      o.t_avg_us = s.mean;
      o.t_max_us = s.max;
      // IMB's throughput: bytes_scale * X / t_max, in MiB/s (§3.3.1: X / 1.048576 / t[usec]).
      if (comm.report != Report::Latency && s.max > 0)
        o.mbytes_per_s =
            comm.bytes_scale * static_cast<double>(comm.message_bytes) / kMiB / (s.max * 1e-6);
    }
    out.push_back(o);
  }
  return out;
}

std::optional<OpTimes> worst_group(const std::vector<OpTimes> &groups) {
  if (groups.empty())
    return std::nullopt;
  return *std::max_element(groups.begin(), groups.end(), [](const OpTimes &a, const OpTimes &b) {
    return a.t_max_us < b.t_max_us;
  });
}

Repetition reduce_repetition(MPI_Comm all, const GroupPlace &place,
                             const std::vector<PhaseTiming> &phases, const TestSpec &spec, int rep,
                             double open_time_s, double close_time_s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(all, &rank);
  MPI_Comm_size(all, &size);
  std::vector<int> group_of(static_cast<size_t>(size));
  MPI_Gather(&place.group, 1, MPI_INT, group_of.data(), 1, MPI_INT, 0, all);

  Repetition r;
  r.rep = rep;
  r.open_time_s = open_time_s;
  r.close_time_s = close_time_s;
  double my_total_own = 0;
  for (size_t k = 0; k < phases.size(); ++k) {
    const PhaseTiming &p = phases[k];
    PhaseResult pr;
    pr.label = spec.phases[k].label;
    pr.units = p.units;
    MPI_Allreduce(&p.bytes, &pr.bytes, 1, MPI_INT64_T, MPI_SUM, all);
    pr.aggregate_time_s = p.aggregate_time;
    pr.elapsed_time_s = p.elapsed;
    pr.time_budget_s = p.time_driven ? p.budget : 0;
    pr.units_limit = p.time_driven ? p.units_limit : 0;
    if (p.wore_out)
      pr.end_check = PhaseEnd::WearOut;
    else if (p.time_driven)
      pr.end_check = phase_end(spec.phases[k].end_check);
    pr.units_at_stop_min = p.units_at_stop_min;
    pr.units_at_stop_max = p.units_at_stop_max;
    pr.stonewall_time_s = p.stonewall_time;
    pr.wear_out_time_s = p.wear_out_time;
    pr.stonewalled = p.stonewalled;
    pr.timing_scope = p.scope;
    pr.latency = p.latency;
    pr.units_overlapped = p.overlapped;
    if (spec.merit == Merit::Operations) { // work_unit counted operations, not bytes
      pr.ops = pr.bytes;
      pr.bytes = 0;
      pr.ops_per_s =
          pr.aggregate_time_s > 0 ? static_cast<double>(pr.ops) / pr.aggregate_time_s : 0;
    }
    pr.bandwidth_MiBps = bandwidth(pr.bytes, pr.aggregate_time_s);
    const std::vector<double> own = gather(all, p.own_time);
    if (rank == 0) {
      pr.rank_time_s = summarize(own);
      if (spec.comm)
        pr.groups = op_times(own, group_of, place.groups, p.units, *spec.comm);
    }
    r.units += pr.units;
    r.bytes += pr.bytes;
    r.ops += pr.ops;
    r.aggregate_time_s += pr.aggregate_time_s;
    my_total_own += p.own_time;
    r.phases.push_back(std::move(pr));
  }
  r.bandwidth_MiBps = bandwidth(r.bytes, r.aggregate_time_s);
  r.ops_per_s = r.aggregate_time_s > 0 ? static_cast<double>(r.ops) / r.aggregate_time_s : 0;
  const std::vector<double> own = gather(all, my_total_own);
  if (rank == 0) {
    r.rank_time_s = summarize(own);
    if (spec.comm)
      r.op = worst_group(op_times(own, group_of, place.groups, r.units, *spec.comm));
  }
  return r;
}

TestSummary summarize_reps(const std::vector<Repetition> &reps) {
  std::vector<double> ops;
  for (const auto &r : reps)
    ops.push_back(r.ops_per_s);
  std::vector<double> bw, agg, open, close, rmin, rmean, rmax;
  for (const auto &r : reps) {
    bw.push_back(r.bandwidth_MiBps);
    agg.push_back(r.aggregate_time_s);
    open.push_back(r.open_time_s);
    close.push_back(r.close_time_s);
    rmin.push_back(r.rank_time_s.min);
    rmean.push_back(r.rank_time_s.mean);
    rmax.push_back(r.rank_time_s.max);
  }
  TestSummary s;
  s.bandwidth_MiBps = summarize(bw);
  s.ops_per_s = summarize(ops);
  s.aggregate_time_s = summarize(agg);
  s.open_time_s = summarize(open);
  s.close_time_s = summarize(close);
  s.rank_min_s = summarize(rmin);
  s.rank_mean_s = summarize(rmean);
  s.rank_max_s = summarize(rmax);
  // The best repetition's per-operation times (smallest t_max).
  for (const auto &r : reps)
    if (r.op && (!s.op || r.op->t_max_us < s.op->t_max_us))
      s.op = r.op;
  return s;
}

} // namespace pio::harness
