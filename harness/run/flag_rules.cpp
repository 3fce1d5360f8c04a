// The rules that flag a test's figure (flag_rules.hpp).
#include "run/flag_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "run/stats.hpp"
#include "run/steadiness.hpp"

namespace pio::harness {

namespace {

std::string num(double v, const char *format = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string percent(double share) { return num(100 * share, "%.0f") + " %"; }

/// A byte count for people: "512 KiB", "1.5 GiB".
std::string bytes_text(double b) {
  const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int k = 0;
  while (k < 4 && b >= 1024) {
    b /= 1024;
    ++k;
  }
  return num(b) + " " + unit[k];
}

/// The slowest copy rate of the run's nodes (0: not measured).
double slowest_copy(const RunResult &run) {
  double slowest = 0;
  for (const auto &h : run.hosts)
    if (h.conditions.memory_copy_MiBps > 0 &&
        (slowest == 0 || h.conditions.memory_copy_MiBps < slowest))
      slowest = h.conditions.memory_copy_MiBps;
  return slowest;
}

/// A repetition's page_cache reason ("" if its reads were not mostly cached).
std::string cache_reason(const Repetition &r, CacheMode mode) {
  if (mode == CacheMode::Direct)
    return {};
  for (const auto &p : r.phases) {
    if (!p.cache || p.cache->access == PhaseAccess::Write)
      continue;
    const CacheCheck &c = *p.cache;
    if (c.access == PhaseAccess::ReRead)
      return "re-read: each unit reads what its untimed first read just brought into the page "
             "cache (thesis §3.4.2); only CacheMode direct reads the storage";
    if (c.range_bytes <= 0)
      continue;
    const double share = static_cast<double>(c.resident_bytes) / static_cast<double>(c.range_bytes);
    if (share <= kMostlyResident && c.max_node_fraction <= kMostlyResident)
      continue;
    std::string why = percent(share) + " of the " + bytes_text(static_cast<double>(c.range_bytes)) +
                      " read was in the page cache before the read (CacheMode " + to_string(mode) +
                      ")";
    if (c.memory_file_system)
      why += "; the file is on tmpfs, whose pages are its storage: nothing can evict them";
    else if (!c.dropped)
      why += "; CacheMode drop evicts it first";
    return why;
  }
  return {};
}

/// A repetition's write_cache reason ("" if its write phases left their bytes on storage, or if
/// that was not measured). On tmpfs or ramfs the page cache is the storage: nothing to flag.
std::string write_cache_reason(const Repetition &r) {
  for (const auto &p : r.phases) {
    if (!p.cache || p.cache->access != PhaseAccess::Write)
      continue;
    const CacheCheck &c = *p.cache;
    if (c.memory_file_system || c.dirty_bytes < 0 || c.range_bytes <= 0)
      continue;
    const double share = static_cast<double>(c.dirty_bytes) / static_cast<double>(c.range_bytes);
    if (share <= kMostlyResident)
      continue;
    return percent(share) + " of the " + bytes_text(static_cast<double>(c.range_bytes)) +
           " written was still in the page cache, not on storage, when the write phase ended "
           "(SyncAtEnd on or SyncWrites on puts the flush in the timed window; CacheMode direct "
           "writes past the cache)";
  }
  return {};
}

/// The first repetition's warm_up reason ("" if it is not a slow outlier). On a log scale: a
/// rate and a time are reciprocals, and a slow first repetition must stand out from the others
/// as clearly in MiB/s as in seconds. A first repetition faster than the others is no warm-up
/// (the spread's flags speak of it): `higher_is_better` says which side is slow (a rate; a time
/// per operation is lower).
std::string warm_up_reason(const std::vector<double> &x, const std::string &unit,
                           bool higher_is_better) {
  if (x.size() < 3 || std::any_of(x.begin(), x.end(), [](double v) { return !(v > 0); }))
    return {};
  const std::vector<double> rest(x.begin() + 1, x.end());
  const Stats s = summarize(rest);
  const double lo = std::log(s.min), hi = std::log(s.max), first = std::log(x[0]);
  const double margin = std::max(hi - lo, std::log1p(kWarmUpMinShift));
  if (higher_is_better ? first >= lo - margin : first <= hi + margin)
    return {};
  return "the first repetition's " + num(x[0], "%.4g") + " " + unit + " lies outside the other " +
         std::to_string(rest.size()) + " (" + num(s.min, "%.4g") + ".." + num(s.max, "%.4g") +
         ") by more than they vary";
}

/// The one repetition of at least kLoneOutlierMin whose leaving out brings the others' CV within
/// kWideCv: the farthest from the median on a log scale (a rate and a time are reciprocals).
/// The figure is the median, which one outlier does not move; more than one is a spread.
std::optional<size_t> lone_outlier(const std::vector<double> &x) {
  if (x.size() < kLoneOutlierMin ||
      std::any_of(x.begin(), x.end(), [](double v) { return !(v > 0); }))
    return std::nullopt;
  const double median = summarize(x).median;
  size_t far = 0;
  for (size_t i = 1; i < x.size(); ++i)
    if (std::fabs(std::log(x[i] / median)) > std::fabs(std::log(x[far] / median)))
      far = i;
  std::vector<double> rest = x;
  rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(far));
  if (steadiness_of(rest).cv > kWideCv)
    return std::nullopt;
  return far;
}

const char *figure_unit(const TestResult &t) { return t.comm ? "us" : merit_unit(t.merit); }

/// Which IMB table a test belongs to: its process count and groups.
std::string table_of(const TestResult &t) {
  const auto np = t.params.find("np");
  return (np == t.params.end() ? std::to_string(t.procs) : np->second) + "/" +
         std::to_string(t.groups);
}

void assess_notes(TestResult &t) {
  t.notes.clear();
  for (const auto &r : t.reps)
    if (r.aggregate_time_s > 0 &&
        r.rank_time_s.max > r.aggregate_time_s * (1 + kOwnAboveAggregate)) {
      t.notes.push_back("repetition " + std::to_string(r.rep) + ": a rank's own time (" +
                        num(r.rank_time_s.max, "%.4g") + " s) exceeds the aggregate time (" +
                        num(r.aggregate_time_s, "%.4g") +
                        " s) that should contain it: the clocks or the timing are not to be "
                        "trusted for this repetition");
      break;
    }
  if (t.comm || t.timing_scope != TimingScope::Unit || t.reps.empty())
    return;
  std::vector<double> ratio;
  for (const auto &r : t.reps)
    if (r.rank_time_s.max > 0)
      ratio.push_back(r.aggregate_time_s / r.rank_time_s.max);
  if (ratio.empty())
    return;
  const double median = summarize(ratio).median;
  if (median > kBarrierShare)
    t.notes.push_back("the aggregate time is " + num(median) +
                      "x the longest rank's own time: most of it is the two barriers around "
                      "each work unit, not the I/O (units too small for TimingScope unit; "
                      "TimingScope phase times the units back to back as IOR does)");
}

} // namespace

void add_flag(std::vector<FlagRecord> &flags, Flag flag, const std::string &reason) {
  for (const auto &f : flags)
    if (f.flag == flag)
      return;
  flags.push_back({flag, reason});
}

namespace {

/// Per repetition: the page cache, the memory copy rate, the first repetition's warm-up (x: each
/// repetition's figure, in `unit`).
void assess_reps(TestResult &t, const ModuleResult &block, const RunResult &run,
                 const std::vector<double> &x, const char *unit) {
  const TestConditions &c = t.conditions;
  int cached = 0, unflushed = 0, beyond = 0;
  std::string cache_first, unflushed_first, copy_first;
  const double copy = slowest_copy(run);
  for (auto &r : t.reps) {
    const std::string why = cache_reason(r, block.cache_mode);
    if (!why.empty()) {
      add_flag(r.flags, Flag::PageCache, why);
      if (cached++ == 0)
        cache_first = why;
    }
    if (const std::string w = write_cache_reason(r); !w.empty()) {
      add_flag(r.flags, Flag::WriteCache, w);
      if (unflushed++ == 0)
        unflushed_first = w;
    }
    if (copy > 0 && !t.comm && t.merit == Merit::Bandwidth && t.procs > 0 && c.ranks_per_node > 0) {
      const double per_node = r.bandwidth_MiBps * c.ranks_per_node / t.procs;
      if (per_node > copy) {
        const std::string w = num(per_node, "%.0f") + " MiB/s per node exceeds the node's memory " +
                              "copy rate of " + num(copy, "%.0f") +
                              " MiB/s: the bytes cannot all have moved";
        add_flag(r.flags, Flag::MemoryBandwidth, w);
        if (beyond++ == 0)
          copy_first = w;
      }
    }
  }
  const std::string n = std::to_string(t.reps.size());
  if (cached > 0)
    add_flag(t.flags, Flag::PageCache,
             std::to_string(cached) + " of " + n +
                 " repetitions read from the page cache: " + cache_first);
  if (unflushed > 0)
    add_flag(t.flags, Flag::WriteCache,
             std::to_string(unflushed) + " of " + n +
                 " repetitions left their writes in the page cache: " + unflushed_first);
  if (beyond > 0)
    add_flag(t.flags, Flag::MemoryBandwidth,
             std::to_string(beyond) + " of " + n + " repetitions: " + copy_first);
  // After WarmUpReps the first recorded repetition is one like the others (the spread's flags
  // judge it): the first uses were run and not recorded, as fio's ramp_time and IMB's warm-up.
  if (const std::string w = block.warm_up_reps > 0
                                ? std::string()
                                : warm_up_reason(x, unit, !(t.comm && t.reps.front().op));
      !w.empty()) {
    add_flag(t.reps.front().flags, Flag::WarmUp, w);
    add_flag(t.flags, Flag::WarmUp, w);
  }
}

/// Over the repetitions: their spread against the target or the CV, and two groups.
void assess_spread(TestResult &t, const ModuleResult &block, const std::vector<double> &x) {
  const std::string n = std::to_string(t.reps.size());
  const Steadiness &s = t.summary.steadiness;
  // ModuleReps auto: its target says how close the median must be; otherwise the CV.
  if (block.reps_auto) {
    if (t.reps_stop && *t.reps_stop != RepsStop::Target)
      add_flag(t.flags, Flag::WideSpread,
               "after " + n + " repetitions the median's interval is " +
                   (s.ci_low ? "+-" + percent(s.ci_half_width) : std::string("not yet known")) +
                   ", not within the target +-" + percent(block.reps_target) + " (stopped at the " +
                   (*t.reps_stop == RepsStop::TimeCap ? "time cap" : "largest count") + ")");
  } else if (s.count >= 3 && s.cv > kWideCv) {
    const std::optional<size_t> lone = lone_outlier(x);
    if (!lone) {
      add_flag(t.flags, Flag::WideSpread,
               "the repetitions vary by " + percent(s.cv) + " (CV; " + num(s.min_over_median) +
                   ".." + num(s.max_over_median) + " of the median), more than " +
                   percent(kWideCv));
    } else {
      std::vector<double> rest = x;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(*lone));
      t.notes.push_back("repetition " + std::to_string(t.reps[*lone].rep) + " lies at " +
                        num(x[*lone] / s.median) + " of the median, apart from the others (CV " +
                        percent(s.cv) + " with it, " + percent(steadiness_of(rest).cv) +
                        " without): the figure, their median, does not rest on it");
    }
  }
  if (is_bimodal(x))
    add_flag(t.flags, Flag::Bimodal,
             "the " + n + " repetitions fall into two groups (" + num(s.min_over_median) + ".." +
                 num(s.max_over_median) + " of the median) with a gap wider than either");
}

/// The nodes' conditions: oversubscribed, swapping, waiting for a CPU, loaded.
void assess_conditions(TestResult &t, const RunResult &run) {
  const TestConditions &c = t.conditions;
  const bool crowded = c.usable_cores > 0 && c.ranks_per_node > c.usable_cores;
  if (crowded)
    add_flag(t.flags, Flag::Oversubscribed,
             std::to_string(c.ranks_per_node) + " ranks on a node with " +
                 std::to_string(c.usable_cores) +
                 " usable cores: the figure measures the scheduler too");
  if (c.swapped_pages > 0)
    add_flag(t.flags, Flag::Swapping,
             "a node swapped " + std::to_string(c.swapped_pages) + " pages during the test");
  std::string waited; // what waited, if the share is too large
  if (c.cpu_wait_fraction >= 0) {
    if (c.cpu_wait_fraction > kHeavyCpuWait)
      waited = "a rank of the test waited for a CPU during " + percent(c.cpu_wait_fraction) +
               " of its phases (its run-queue delay, /proc/thread-self/schedstat)";
  } else if (c.node_cpu_pressure > kHeavyCpuWait) {
    waited = "tasks waited for a CPU during " + percent(c.node_cpu_pressure) +
             " of the test on a node (/proc/pressure/cpu)";
  }
  if (!waited.empty()) {
    // Unbound ranks queue behind each other: a rank that wakes from I/O may land on the CPU
    // another rank busy-polls on (64 KiB SyncWrites writes on ext4, 2 ranks on 2 cores: 23-25 %
    // waited unbound, 5-6 % bound, docs/reference/results.md, "Conditions").
    int rank_cpus = 0;
    for (const auto &h : run.hosts)
      rank_cpus = std::max(rank_cpus, h.conditions.rank_cpus);
    if (crowded)
      waited += "; the ranks oversubscribe the node's cores";
    else if (rank_cpus > 1)
      waited += "; the ranks are not bound to cores (one may run on any of " +
                std::to_string(rank_cpus) +
                " CPUs) and can queue behind each other: bind them (mpiexec -bind-to core)";
    add_flag(t.flags, Flag::HeavyLoad, waited);
  } else if (c.cpu_wait_fraction < 0 && c.node_cpu_pressure < 0) {
    for (const auto &h : run.hosts)
      if (h.conditions.usable_cores > 0 && h.conditions.load_1m > h.conditions.usable_cores) {
        add_flag(t.flags, Flag::HeavyLoad,
                 "load average " + num(h.conditions.load_1m) + " before the run on " + h.name +
                     " with " + std::to_string(h.conditions.usable_cores) + " usable cores");
        break;
      }
  }
}

} // namespace

void assess_test(TestResult &t, const ModuleResult &block, const RunResult &run) {
  t.flags.clear();
  std::vector<double> x;
  for (auto &r : t.reps) {
    r.flags.clear();
    x.push_back(figure_of(r, t));
  }
  t.summary.steadiness = steadiness_of(x);
  assess_notes(t);
  if (t.reps.empty())
    return;
  assess_reps(t, block, run, x, figure_unit(t));
  assess_spread(t, block, x);
  assess_conditions(t, run);
}

std::vector<size_t> assess_first_lengths(ModuleResult &block) {
  std::vector<size_t> flagged;
  for (size_t i = 0; i + 1 < block.tests.size(); ++i) {
    TestResult &first = block.tests[i];
    const TestResult &next = block.tests[i + 1];
    const bool starts_table = i == 0 || table_of(block.tests[i - 1]) != table_of(first);
    if (!first.comm || !next.comm || !first.summary.op || !next.summary.op || !starts_table ||
        table_of(next) != table_of(first) || next.comm->message_bytes <= first.comm->message_bytes)
      continue;
    const double t0 = first.summary.op->t_avg_us, t1 = next.summary.op->t_avg_us;
    if (t1 > 0 && t0 > kFirstLengthRatio * t1) {
      const std::string w =
          "the first message length (" + std::to_string(first.comm->message_bytes) + " B) took " +
          num(t0, "%.4g") + " us per operation, " + num(t0 / t1) + "x the next length's " +
          num(t1, "%.4g") + " us: a warm-up the table paid for";
      add_flag(first.flags, Flag::WarmUp, w);
      flagged.push_back(i);
    }
  }
  return flagged;
}

} // namespace pio::harness
