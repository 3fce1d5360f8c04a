// The b_eff_io figure from typed results (b_eff_io paper §5.1, §5.3, §6).
#include "figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

namespace pio::beff_io {
namespace {

const char *const kTypeNames[kPatternTypes] = {"scatter", "shared", "separate", "segmented",
                                               "seg-coll"};
const char *const kChunkOrder[] = {"1K", "1K+8", "32K", "32K+8", "1M", "1M+8", "MPART", "fill"};

/// The unit of the figure's bandwidths: MB = 10^6 B (b_eff_io 2.1) or MiB = 2^20 B (paper).
double unit_bytes(Definition d) { return d == Definition::Original ? kMB : kMiB_d; }
const char *unit_name(Definition d) { return d == Definition::Original ? "MB/s" : "MiB/s"; }

double rate(double bytes, double seconds, double unit) {
  return seconds > 0 ? bytes / unit / seconds : 0.0;
}

/// Bytes, time and units summed over phases (and opens and closes).
struct Sum {
  std::int64_t bytes = 0;
  double time = 0;
  std::int64_t units = 0;
  void add(std::int64_t b, double t, std::int64_t u = 0) {
    bytes += b;
    time += t;
    units += u;
  }
  double per_s(double unit) const { return rate(static_cast<double>(bytes), time, unit); }
};

/// One partition's sums.
struct PartitionSums {
  std::set<int> types_present, types_failed;
  Sum type_method[kPatternTypes][3];
  std::map<std::pair<int, int>, Sum> pattern_method;             ///< (pattern, method)
  std::map<int, std::pair<int, std::string>> pattern_info;       ///< pattern -> (type, chunk)
  std::map<std::tuple<int, std::string, int>, Sum> chunk_method; ///< (type, chunk, method)
  double timed = 0;   ///< open + units + close over all tests
  double elapsed = 0; ///< open + phases' elapsed wall time + close over all tests
};

std::string fmt(double v, int prec = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

/// Adds one test's repetitions to its partition.
void add_test(const FigureFacts &facts, const FigureTest &meta, const TestResult &test,
              PartitionSums &ps) {
  const Definition d = facts.definition;
  if (test.error || test.reps.empty()) {
    ps.types_failed.insert(meta.type);
    return;
  }
  ps.types_present.insert(meta.type);
  const int m = static_cast<int>(meta.method);
  for (const auto &rep : test.reps) {
    // §5.1: a pattern type's bandwidth per access method is bytes / time from opening to
    // closing the file; each test is one access method of one type, with its own open/close.
    const double open_close = rep.open_time_s + rep.close_time_s;
    ps.type_method[meta.type][m].add(0, open_close);
    ps.timed += open_close;
    ps.elapsed += open_close;
    for (size_t k = 0; k < rep.phases.size() && k < meta.phases.size(); ++k) {
      const FigurePhase &what = meta.phases[k];
      const PhaseResult &ph = rep.phases[k];
      const double t = phase_time(d, ph);
      ps.timed += ph.aggregate_time_s;
      ps.elapsed += ph.elapsed_time_s;
      ps.type_method[meta.type][m].add(ph.bytes, t);
      // A pattern's time includes the MPI_File_sync that ends its write loop (§5.1).
      auto calls = facts.calls_per_unit.find({test.index, static_cast<int>(k)});
      const std::int64_t per_unit = calls == facts.calls_per_unit.end() ? 1 : calls->second;
      ps.pattern_method[{what.pattern, m}].add(ph.bytes, t, what.sync ? 0 : ph.units * per_unit);
      if (!what.sync)
        ps.pattern_info[what.pattern] = {meta.type, what.chunk};
    }
  }
}

} // namespace

double phase_time(Definition d, const PhaseResult &phase) {
  return d == Definition::Original ? phase.elapsed_time_s : phase.aggregate_time_s;
}

Figure make_figure(const std::vector<FigureTest> &tests, const FigureFacts &facts,
                   const ModuleResult &results) {
  std::map<int, PartitionSums> parts;
  for (const auto &test : results.tests) {
    if (test.index < 0 || static_cast<size_t>(test.index) >= tests.size())
      continue;
    const FigureTest &meta = tests[static_cast<size_t>(test.index)];
    add_test(facts, meta, test, parts[meta.partition]);
  }
  // Chunk rows: patterns of one type with the same l are combined, bytes over time (§6).
  for (auto &[procs, ps] : parts)
    for (const auto &[pm, sum] : ps.pattern_method) {
      auto it = ps.pattern_info.find(pm.first);
      if (it != ps.pattern_info.end())
        ps.chunk_method[{it->second.first, it->second.second, pm.second}].add(sum.bytes, sum.time,
                                                                              sum.units);
    }

  const Definition def = facts.definition;
  const double unit = unit_bytes(def);
  const std::string bw_unit = unit_name(def);
  // T of one partition: b_eff_io 2.1 shares T among the partitions.
  const double T = def == Definition::Original
                       ? facts.scheduled_time_s / std::max(1, facts.partitions)
                       : facts.scheduled_time_s;
  Figure fig;
  fig.name = "b_eff_io";
  std::vector<FigureValue> per_partition;
  FigureTable types{"types", {"partition", "method", "type", "bytes", "time_s", bw_unit}, {}};
  FigureTable chunks{"chunks", {"partition", "method", "chunk"}, {}};
  for (int t = 0; t < kPatternTypes; ++t)
    chunks.columns.push_back("type " + std::to_string(t) + " " + kTypeNames[t] + " " + bw_unit);
  FigureTable patterns{"patterns",
                       {"partition", "pattern", "type", "chunk", "method", "units", "bytes",
                        "time_s", bw_unit, "rounds"},
                       {}};
  std::vector<std::string> incomplete;
  double best = -1;
  int best_procs = 0;
  bool best_complete = false;
  for (const auto &[procs, ps] : parts) {
    const std::string P = "P" + std::to_string(procs) + " ";
    double method_values[3] = {0, 0, 0};
    std::map<int, double> by_type[3];
    for (Method m : all_methods()) {
      const int mi = static_cast<int>(m);
      for (int t = 0; t < kPatternTypes; ++t) {
        const Sum &s = ps.type_method[t][mi];
        if (!ps.types_present.count(t) || s.time <= 0)
          continue;
        by_type[mi][t] = s.per_s(unit);
        types.rows.push_back({std::int64_t{procs}, std::string(method_name(m)), std::int64_t{t},
                              s.bytes, s.time, s.per_s(unit)});
      }
      method_values[mi] = method_beff(by_type[mi]);
    }
    // b_eff_io 2.1: sqrt((w0 + ... + w4 + rewrite 0) / 6 * (2 r0 + r1 + ... + r4) / 6);
    // the paper definition: 25 % write + 25 % rewrite + 50 % read.
    const auto rw0 = by_type[1].find(0);
    const double write_rewrite =
        original_write_rewrite(by_type[0], rw0 == by_type[1].end() ? nullptr : &rw0->second);
    const double by_original = original_partition_beff(write_rewrite, method_values[2]);
    const double by_paper = partition_beff(method_values[0], method_values[1], method_values[2]);
    const double value = def == Definition::Original ? by_original : by_paper;
    const bool complete = ps.types_present.size() == kPatternTypes && ps.types_failed.empty();
    // The schedule: the actual run (wall time of the partition's tests, else the I/O steps'
    // elapsed time) against T (§5.1, §5.4).
    auto wall = facts.wall_time_s.find(procs);
    const double actual = wall != facts.wall_time_s.end() ? wall->second : ps.elapsed;
    const double deviation = T > 0 ? actual / T - 1.0 : 0.0;
    per_partition.push_back({P + "b_eff_io", value, bw_unit});
    for (Method m : all_methods())
      per_partition.push_back(
          {P + "b_eff_io(" + method_name(m) + ")", method_values[static_cast<int>(m)], bw_unit});
    per_partition.push_back({P + "b_eff_io(write+rewrite type 0)", write_rewrite, bw_unit});
    per_partition.push_back({P + "b_eff_io by original formula", by_original, bw_unit});
    per_partition.push_back({P + "b_eff_io by paper formula", by_paper, bw_unit});
    per_partition.push_back({P + "complete", complete ? 1.0 : 0.0, ""});
    per_partition.push_back({P + "scheduled_time", T, "s"});
    per_partition.push_back({P + "actual_time", actual, "s"});
    per_partition.push_back({P + "deviation", deviation, ""});
    per_partition.push_back({P + "within_10_percent", std::abs(deviation) <= 0.10 ? 1.0 : 0.0, ""});
    per_partition.push_back({P + "measured_time", ps.timed, "s"});
    per_partition.push_back({P + "io_elapsed_time", ps.elapsed, "s"});
    if (wall != facts.wall_time_s.end())
      per_partition.push_back({P + "wall_time", wall->second, "s"});
    auto seg = facts.segment_size.find(procs);
    if (seg != facts.segment_size.end())
      per_partition.push_back({P + "segment_size", static_cast<double>(seg->second), "bytes"});
    if (!complete) {
      std::string missing;
      for (int t = 0; t < kPatternTypes; ++t)
        if (!ps.types_present.count(t) || ps.types_failed.count(t))
          missing += (missing.empty() ? "" : " ") + std::to_string(t) +
                     (ps.types_failed.count(t) ? " (failed)" : "");
      incomplete.push_back("P" + std::to_string(procs) +
                           " is incomplete: pattern types missing or failed: " + missing);
    }
    // The detailed table (§5.3, Fig. 3): bandwidth per pattern type and chunk size, per method.
    for (Method m : all_methods())
      for (const char *chunk : kChunkOrder) {
        std::vector<Cell> row = {std::int64_t{procs}, std::string(method_name(m)),
                                 std::string(chunk)};
        bool any = false;
        for (int t = 0; t < kPatternTypes; ++t) {
          auto it = ps.chunk_method.find({t, chunk, static_cast<int>(m)});
          if (it == ps.chunk_method.end()) {
            row.emplace_back(std::string("-"));
            continue;
          }
          row.emplace_back(it->second.per_s(unit));
          any = true;
        }
        if (any)
          chunks.rows.push_back(std::move(row));
      }
    // Per pattern; rounds: how many times a rewrite or read went through what the write wrote
    // (it cycles when its scheduled time outlasts the write's units; cache effects grow with
    // it, §5.4).
    for (const auto &[pat, info] : ps.pattern_info) {
      const auto w = ps.pattern_method.find({pat, static_cast<int>(Method::Write)});
      const std::int64_t written = w != ps.pattern_method.end() ? w->second.units : 0;
      for (Method m : all_methods()) {
        auto it = ps.pattern_method.find({pat, static_cast<int>(m)});
        if (it == ps.pattern_method.end())
          continue;
        const Sum &s = it->second;
        const double rounds =
            written > 0 ? static_cast<double>(s.units) / static_cast<double>(written) : 0.0;
        patterns.rows.push_back({std::int64_t{procs}, std::int64_t{pat}, std::int64_t{info.first},
                                 info.second, std::string(method_name(m)), s.units, s.bytes, s.time,
                                 s.per_s(unit), rounds});
      }
    }
    if (value > best) {
      best = value;
      best_procs = procs;
      best_complete = complete;
    }
  }

  // §5.1: the system value is the maximum over partitions with T >= 15 minutes; b_eff_io 2.1
  // asks T_n >= 30 minutes per partition.
  std::vector<std::string> reasons;
  const double minimum_T = def == Definition::Original ? kOriginalMinimumT : kRuleMinimumT;
  if (T < minimum_T)
    reasons.push_back(
        "scheduled time " + fmt(T) + " s per partition is below " + fmt(minimum_T / 60, 0) +
        " min (" + fmt(minimum_T, 0) +
        (def == Definition::Original ? " s, b_eff_io 2.1's criterion 1)" : " s, §5.1)"));
  if (!facts.all_patterns)
    reasons.push_back("only a subset of the patterns of Table 2 was run");
  if (!facts.mpart_by_definition)
    reasons.push_back("M_PART was set by hand, not max(2 MB, memory per process / 128)");
  if (facts.fixed_units)
    reasons.push_back("FixedUnits replaced the time-driven schedule");
  if (parts.empty())
    reasons.push_back("no partition was measured");
  else if (!best_complete)
    reasons.push_back("the best partition is missing a pattern type (failed or not selected)");
  if (!facts.capped.empty())
    reasons.push_back("MaxFileSize ended some write loops before their scheduled time");

  fig.values = {{"b_eff_io", best < 0 ? 0.0 : best, bw_unit},
                {"processes", static_cast<double>(best_procs), ""},
                {"meets_rule", reasons.empty() ? 1.0 : 0.0, ""},
                {"scheduled_time", facts.scheduled_time_s, "s"},
                {"definition_original", def == Definition::Original ? 1.0 : 0.0, ""}};
  fig.values.insert(fig.values.end(), per_partition.begin(), per_partition.end());
  fig.tables = {std::move(types), std::move(chunks), std::move(patterns)};
  if (def == Definition::Original)
    fig.notes.push_back(
        "definition original (b_eff_io 2.1, R. Rabenseifner, HLRS): per pattern type bytes / "
        "wall time from open to close; per partition sqrt((write types 0-4 + rewrite type 0) / 6 "
        "x (2 read type 0 + read types 1-4) / 6); system = maximum over partitions; T shared by "
        "the partitions, each write loop of types 0-2 T_n * U / U_sum, rewrite " +
        std::string(facts.rewrite_all ? "of every type" : "of type 0 only") +
        ", rewrite and read " +
        (facts.read_rewrite_count ? "repeating the write's calls"
                                  : "time-driven (ReadRewrite time, not 2.1's)") +
        ", segments of types 3 and 4 min(r0 L/l, 10 r1, r2); MB/s = 10^6 bytes per second");
  else
    fig.notes.push_back(
        "definition paper (b_eff_io paper §5.1): per pattern type bytes / timed units from open "
        "to close; per access method the average over types with type 0 weighted double; per "
        "partition 25% write + 25% rewrite + 50% read; system = maximum over partitions; each "
        "access method T/3; MiB/s = 2^20 bytes per second");
  // The console shows two rates per test (docs/reference/beff_io.md, "Two numbers for one test").
  fig.notes.push_back(
      std::string("two numbers for one test: the per-test table above the figure is the "
                  "harness's MiB/s (2^20 B/s) over the timed work units only; the types table "
                  "here is ") +
      bw_unit +
      (def == Definition::Original
           ? " (10^6 B/s) over the wall time from open to close (opens, closes, the loops' "
             "barriers, syncs and views included), so it is the lower of the two"
           : " (2^20 B/s) over open + the timed units + close"));
  if (reasons.empty())
    fig.notes.push_back("meets the paper's rule (T >= 15 min, all patterns, §5.1)");
  for (const auto &r : reasons)
    fig.notes.push_back("does not meet the paper's rule: " + r);
  for (const auto &p : incomplete)
    fig.notes.push_back(p);
  if (!facts.positioning_type1.empty())
    fig.notes.push_back("pattern type 1 positioning: " + facts.positioning_type1);
  for (const auto &c : facts.capped)
    fig.notes.push_back("MaxFileSize capped: " + c);
  return fig;
}

} // namespace pio::beff_io
