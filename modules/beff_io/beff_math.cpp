// The MPI-free half of b_eff_io: Table 2, schedule, segment size and the averaging rules
// (seeds/000 §5.1, Table 2, §5.3, §5.4, §6; seeds/002 §4).
#include "beff_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace pio::beff {

const char *method_name(Method m) {
  switch (m) {
  case Method::Write:
    return "write";
  case Method::Rewrite:
    return "rewrite";
  case Method::Read:
    return "read";
  }
  return "?";
}

const std::vector<Method> &all_methods() {
  static const std::vector<Method> methods = {Method::Write, Method::Rewrite, Method::Read};
  return methods;
}

namespace {

Pattern row(int number, int type, std::int64_t l, std::int64_t L, int U, std::string chunk,
            bool well_formed = true) {
  Pattern p;
  p.number = number;
  p.type = type;
  p.l = l;
  p.L = L;
  p.U = U;
  p.chunk = std::move(chunk);
  p.well_formed = well_formed;
  return p;
}

} // namespace

std::vector<Pattern> table2(std::int64_t mpart) {
  const std::int64_t K = kKiB, M = kMiB;
  std::vector<Pattern> t;
  // Type 0: strided collective, L bytes of memory scattered to chunks of l on disk per call.
  t.push_back(row(0, 0, M, M, 0, "1M"));
  t.push_back(row(1, 0, mpart, mpart, 4, "MPART"));
  t.push_back(row(2, 0, M, 2 * M, 4, "1M"));
  t.push_back(row(3, 0, M, M, 4, "1M"));
  t.push_back(row(4, 0, 32 * K, M, 2, "32K"));
  t.push_back(row(5, 0, K, M, 2, "1K"));
  t.push_back(row(6, 0, 32 * K + 8, M + 256, 2, "32K+8", false));
  t.push_back(row(7, 0, K + 8, M + 8 * K, 2, "1K+8", false));
  t.push_back(row(8, 0, M + 8, M + 8, 2, "1M+8", false));
  // Type 1: strided collective with shared file pointers, one call per chunk (L := l).
  const struct {
    std::int64_t l;
    int U;
    const char *chunk;
    bool wf;
  } t1[] = {{M, 0, "1M", true},        {mpart, 4, "MPART", true}, {M, 2, "1M", true},
            {32 * K, 1, "32K", true},  {K, 1, "1K", true},        {32 * K + 8, 1, "32K+8", false},
            {K + 8, 1, "1K+8", false}, {M + 8, 2, "1M+8", false}};
  int n = 9;
  for (const auto &r : t1)
    t.push_back(row(n++, 1, r.l, r.l, r.U, r.chunk, r.wf));
  // Type 2: separate files, non-collective (L := l).
  const struct {
    std::int64_t l;
    int U;
    const char *chunk;
    bool wf;
  } t2[] = {{M, 0, "1M", true},        {mpart, 2, "MPART", true}, {M, 2, "1M", true},
            {32 * K, 1, "32K", true},  {K, 1, "1K", true},        {32 * K + 8, 1, "32K+8", false},
            {K + 8, 1, "1K+8", false}, {M + 8, 2, "1M+8", false}};
  for (const auto &r : t2)
    t.push_back(row(n++, 2, r.l, r.l, r.U, r.chunk, r.wf));
  // Types 3 and 4: as patterns 17-24 on segments of one file, then "fill up segments".
  for (int type = 3; type <= 4; ++type) {
    for (const auto &r : t2)
      t.push_back(row(n++, type, r.l, r.l, r.U, r.chunk, r.wf));
    Pattern fill = row(n++, type, 0, 0, 0, "fill");
    fill.fill = true;
    t.push_back(fill);
  }
  return t;
}

std::int64_t mpart_for(std::int64_t memory_per_process) {
  return std::max<std::int64_t>(2 * kMiB, memory_per_process / 128);
}

double pattern_budget(double scheduled_time, int units, int sum_units) {
  if (sum_units <= 0)
    return 0;
  return scheduled_time / 3.0 * static_cast<double>(units) / static_cast<double>(sum_units);
}

double catch_up_budget(double nominal, double debt) {
  return std::clamp(nominal - debt, kMinimumBudgetShare * nominal, nominal);
}

std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

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

std::int64_t segment_size(const std::vector<std::pair<std::int64_t, std::int64_t>> &l_and_reps) {
  std::int64_t sum = 0;
  for (const auto &[l, reps] : l_and_reps)
    sum += l * reps;
  return std::max(kSegmentAlign, round_up(sum, kSegmentAlign));
}

double type_weight(int type) { return type == 0 ? 2.0 : 1.0; }

double method_beff(const std::map<int, double> &bandwidth_by_type) {
  double sum = 0, weights = 0;
  for (const auto &[type, bw] : bandwidth_by_type) {
    sum += type_weight(type) * bw;
    weights += type_weight(type);
  }
  return weights > 0 ? sum / weights : 0.0;
}

double partition_beff(double write, double rewrite, double read) {
  return 0.25 * write + 0.25 * rewrite + 0.5 * read;
}

std::string phase_label(Method m, const Pattern &p, bool sync) {
  return std::string(method_name(m)) + " " + std::to_string(p.number) + " " +
         (sync ? std::string("sync") : p.chunk);
}

bool parse_phase_label(const std::string &label, PhaseKey &key) {
  std::istringstream in(label);
  std::string method, number, tag;
  if (!(in >> method >> number >> tag))
    return false;
  bool found = false;
  for (Method m : all_methods())
    if (method == method_name(m)) {
      key.method = m;
      found = true;
    }
  if (!found)
    return false;
  try {
    size_t pos = 0;
    key.pattern = std::stoi(number, &pos);
    if (pos != number.size())
      return false;
  } catch (const std::exception &) {
    return false;
  }
  key.sync = tag == "sync";
  key.chunk = key.sync ? "" : tag;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Summary

namespace {

constexpr double kMiBd = 1024.0 * 1024.0;
const char *const kTypeNames[kPatternTypes] = {"scatter", "shared", "separate", "segmented",
                                               "seg-coll"};
const char *const kChunkOrder[] = {"1K", "1K+8", "32K", "32K+8", "1M", "1M+8", "MPART", "fill"};

double mibps(double bytes, double seconds) { return seconds > 0 ? bytes / kMiBd / seconds : 0.0; }

struct Sum {
  double bytes = 0, time = 0;
  std::int64_t units = 0;
  bool present = false;
  void add(double b, double t, std::int64_t u = 0) {
    bytes += b;
    time += t;
    units += u;
    present = true;
  }
  nlohmann::json json() const {
    return {{"bytes", bytes}, {"time_s", time}, {"units", units}, {"MiBps", mibps(bytes, time)}};
  }
};

std::string param(const nlohmann::json &test, const std::string &key, const std::string &def) {
  if (test.contains("params") && test["params"].contains(key) && test["params"][key].is_string())
    return test["params"][key].get<std::string>();
  return def;
}

double num(const nlohmann::json &j, const char *key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

struct PartitionSums {
  int procs = 0;
  std::set<int> types_present;
  std::set<int> types_failed;
  Sum type_method[kPatternTypes][3];
  std::map<std::pair<int, int>, Sum> pattern_method;             // (pattern, method) -> sums
  std::map<int, std::pair<int, std::string>> pattern_info;       // pattern -> (type, chunk)
  std::map<std::tuple<int, std::string, int>, Sum> chunk_method; // (type, chunk, method)
  double timed = 0;   // open + units + close over all tests
  double elapsed = 0; // open + phases' elapsed wall time + close over all tests
};

std::string fmt(double v, int prec = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

std::string pad(const std::string &s, size_t w, bool left = false) {
  if (s.size() >= w)
    return s;
  return left ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}

} // namespace

nlohmann::json summarize_results(const nlohmann::json &module_results,
                                 const nlohmann::json &notes) {
  std::map<int, PartitionSums> parts;
  double scheduled = -1;
  bool all_patterns = true, mpart_definition = true, fixed_units = false;
  std::set<std::string> positioning;
  std::set<std::string> reasons;
  const nlohmann::json tests =
      module_results.contains("tests") ? module_results["tests"] : nlohmann::json::array();
  for (const auto &test : tests) {
    const int procs = std::stoi(param(test, "partition", "0"));
    const int type = std::stoi(param(test, "pattern_type", "-1"));
    if (type < 0 || type >= kPatternTypes)
      continue;
    scheduled = std::stod(param(test, "scheduled_time_s", "0"));
    all_patterns = all_patterns && param(test, "all_patterns", "yes") == "yes";
    mpart_definition = mpart_definition && param(test, "mpart_by_definition", "yes") == "yes";
    fixed_units = fixed_units || param(test, "fixed_units", "0") != "0";
    if (type == 1)
      positioning.insert(param(test, "positioning", "shared file pointers"));
    PartitionSums &ps = parts[procs];
    ps.procs = procs;
    const bool failed = test.contains("error") && !test["error"].is_null();
    if (failed || !test.contains("reps") || test["reps"].empty()) {
      ps.types_failed.insert(type);
      continue;
    }
    ps.types_present.insert(type);
    // The test's access method; its phases say it too (a record without the parameter).
    Method method = Method::Write;
    const std::string method_param = param(test, "access_method", "");
    for (Method m : all_methods())
      if (method_param == method_name(m))
        method = m;
    for (const auto &rep : test["reps"]) {
      const double open_t = num(rep, "open_time_s"), close_t = num(rep, "close_time_s");
      if (method_param.empty() && rep.contains("phases") && !rep["phases"].empty()) {
        PhaseKey first;
        if (parse_phase_label(rep["phases"][0].value("label", ""), first))
          method = first.method;
      }
      // §5.1: a pattern type's bandwidth per access method is bytes / time from opening to
      // closing the file; each test is one access method of one type, with its own open/close.
      ps.type_method[type][static_cast<int>(method)].add(0, open_t + close_t);
      ps.timed += open_t + close_t;
      ps.elapsed += open_t + close_t;
      for (const auto &ph : rep["phases"]) {
        PhaseKey key;
        if (!parse_phase_label(ph.value("label", ""), key))
          continue;
        const double bytes = num(ph, "bytes"), t = num(ph, "aggregate_time_s");
        const auto units = ph.value("units", std::int64_t{0});
        const int m = static_cast<int>(key.method);
        ps.timed += t;
        ps.elapsed += ph.contains("elapsed_time_s") ? num(ph, "elapsed_time_s") : t;
        ps.type_method[type][m].add(bytes, t);
        // A pattern's time includes the MPI_File_sync that ends its write loop (§5.1).
        ps.pattern_method[{key.pattern, m}].add(bytes, t, key.sync ? 0 : units);
        if (!key.sync)
          ps.pattern_info[key.pattern] = {type, key.chunk};
      }
    }
  }
  // Chunk rows: patterns of one type with the same l are combined, bytes over time (§6).
  for (auto &[procs, ps] : parts)
    for (const auto &[pm, sum] : ps.pattern_method) {
      auto it = ps.pattern_info.find(pm.first);
      if (it != ps.pattern_info.end())
        ps.chunk_method[{it->second.first, it->second.second, pm.second}].add(sum.bytes, sum.time,
                                                                              sum.units);
    }

  nlohmann::json out;
  out["definition"] = "b_eff_io (Koniges, Rabenseifner et al. §5.1): per pattern type bytes / "
                      "time from open to close; per access method the average over types with "
                      "type 0 weighted double; per partition 25% write + 25% rewrite + 50% read; "
                      "system = maximum over partitions";
  out["scheduled_time_s"] = scheduled;
  out["units"] = "MiB/s (2^20 bytes per second)";
  nlohmann::json jparts = nlohmann::json::array();
  std::ostringstream text;
  double best = -1;
  int best_procs = 0;
  bool best_complete = false;
  for (auto &[procs, ps] : parts) {
    nlohmann::json jp;
    jp["procs"] = procs;
    double method_values[3] = {0, 0, 0};
    nlohmann::json jm;
    for (Method m : all_methods()) {
      const int mi = static_cast<int>(m);
      std::map<int, double> bw;
      nlohmann::json jt;
      for (int t = 0; t < kPatternTypes; ++t) {
        const Sum &s = ps.type_method[t][mi];
        if (!ps.types_present.count(t) || s.time <= 0)
          continue;
        bw[t] = mibps(s.bytes, s.time);
        jt[std::to_string(t)] = s.json();
      }
      method_values[mi] = method_beff(bw);
      jm[method_name(m)] = {{"b_eff_io_MiBps", method_values[mi]}, {"types", jt}};
    }
    const double value = partition_beff(method_values[0], method_values[1], method_values[2]);
    const bool complete = ps.types_present.size() == kPatternTypes && ps.types_failed.empty();
    jp["methods"] = jm;
    jp["b_eff_io_MiBps"] = value;
    jp["complete"] = complete;
    jp["types_failed"] = ps.types_failed;
    jp["measured_time_s"] = ps.timed;
    jp["io_elapsed_time_s"] = ps.elapsed;
    if (notes.is_object() && notes.contains("wall_time_s") &&
        notes["wall_time_s"].contains(std::to_string(procs)))
      jp["wall_time_s"] = notes["wall_time_s"][std::to_string(procs)];
    // The schedule: the actual run (wall time of the partition's tests, else the I/O steps'
    // elapsed time) against T (§5.1, §5.4).
    const double actual = jp.contains("wall_time_s") ? jp["wall_time_s"].get<double>() : ps.elapsed;
    const double deviation = scheduled > 0 ? actual / scheduled - 1.0 : 0.0;
    jp["schedule"] = {{"scheduled_time_s", scheduled},
                      {"actual_time_s", actual},
                      {"deviation", deviation},
                      {"within_10_percent", std::abs(deviation) <= 0.10}};
    // The detailed table (§5.3, Fig. 3): bandwidth per pattern type and chunk size, per method.
    nlohmann::json table = nlohmann::json::array();
    for (Method m : all_methods())
      for (const char *chunk : kChunkOrder) {
        nlohmann::json rowj = {{"method", method_name(m)}, {"chunk", chunk}};
        bool any = false;
        for (int t = 0; t < kPatternTypes; ++t) {
          auto it = ps.chunk_method.find({t, chunk, static_cast<int>(m)});
          if (it == ps.chunk_method.end())
            continue;
          rowj["MiBps"][std::to_string(t)] = mibps(it->second.bytes, it->second.time);
          rowj["bytes"][std::to_string(t)] = it->second.bytes;
          any = true;
        }
        if (any)
          table.push_back(rowj);
      }
    jp["table"] = table;
    nlohmann::json jpat = nlohmann::json::array();
    for (const auto &[pat, info] : ps.pattern_info) {
      nlohmann::json e = {{"pattern", pat}, {"type", info.first}, {"chunk", info.second}};
      for (Method m : all_methods()) {
        auto it = ps.pattern_method.find({pat, static_cast<int>(m)});
        if (it != ps.pattern_method.end())
          e[method_name(m)] = it->second.json();
      }
      // How many times a rewrite or read went through what the write wrote (it cycles when its
      // scheduled time outlasts the write's units; cache effects grow with it, §5.4).
      const auto w = ps.pattern_method.find({pat, static_cast<int>(Method::Write)});
      if (w != ps.pattern_method.end() && w->second.units > 0)
        for (Method m : {Method::Rewrite, Method::Read})
          if (e.contains(method_name(m)))
            e[method_name(m)]["rounds"] =
                static_cast<double>(e[method_name(m)]["units"].get<std::int64_t>()) /
                static_cast<double>(w->second.units);
      jpat.push_back(e);
    }
    jp["patterns"] = jpat;
    jparts.push_back(jp);
    if (value > best) {
      best = value;
      best_procs = procs;
      best_complete = complete;
    }

    // Console rendering.
    text << "\nb_eff_io, partition of " << procs << " processes: scheduled T = " << fmt(scheduled)
         << " s, actual " << fmt(actual) << " s (" << (deviation >= 0 ? "+" : "")
         << fmt(100 * deviation) << " %), timed open..close " << fmt(ps.timed) << " s\n";
    for (Method m : all_methods()) {
      text << "  " << pad(method_name(m), 8, true) << pad("chunk", 7);
      for (int t = 0; t < kPatternTypes; ++t)
        text << pad(std::to_string(t) + " " + kTypeNames[t], 13);
      text << "   MiB/s\n";
      for (const auto &r : table) {
        if (r["method"] != method_name(m))
          continue;
        text << "  " << pad("", 8) << pad(r["chunk"].get<std::string>(), 7);
        for (int t = 0; t < kPatternTypes; ++t) {
          const auto key = std::to_string(t);
          text << pad(r["MiBps"].contains(key) ? fmt(r["MiBps"][key].get<double>()) : "-", 13);
        }
        text << "\n";
      }
      text << "  " << pad("", 8) << pad("total", 7);
      const auto &types = jm[method_name(m)]["types"];
      for (int t = 0; t < kPatternTypes; ++t) {
        const auto key = std::to_string(t);
        text << pad(types.contains(key) ? fmt(types[key]["MiBps"].get<double>()) : "-", 13);
      }
      text << "   b_eff_io(" << method_name(m)
           << ") = " << fmt(jm[method_name(m)]["b_eff_io_MiBps"].get<double>()) << "\n";
    }
    text << "  b_eff_io of the partition = 0.25*write + 0.25*rewrite + 0.5*read = " << fmt(value)
         << " MiB/s" << (complete ? "" : "  (INCOMPLETE: a pattern type is missing or failed)")
         << "\n";
  }
  out["partitions"] = jparts;
  out["positioning_type1"] = positioning;

  // §5.1: the system value is the maximum over partitions with T >= 15 minutes.
  if (scheduled < kRuleMinimumT)
    reasons.insert("scheduled time T = " + fmt(scheduled) + " s is below 15 min (" +
                   fmt(kRuleMinimumT, 0) + " s, §5.1)");
  if (!all_patterns)
    reasons.insert("only a subset of the patterns of Table 2 was run");
  if (!mpart_definition)
    reasons.insert("M_PART was set by hand, not max(2 MB, memory per process / 128)");
  if (fixed_units)
    reasons.insert("FixedUnits replaced the time-driven schedule");
  if (parts.empty())
    reasons.insert("no partition was measured");
  else if (!best_complete)
    reasons.insert("the best partition is missing a pattern type (failed or not selected)");
  if (notes.is_object() && notes.contains("capped") && !notes["capped"].empty())
    reasons.insert("MaxFileSize ended some write loops before their scheduled time");
  const bool meets = reasons.empty();
  out["system"] = {{"b_eff_io_MiBps", best < 0 ? 0.0 : best}, {"procs", best_procs}};
  out["rule"] = {{"meets", meets}, {"reasons", reasons}};
  if (notes.is_object())
    out["notes"] = notes;
  text << "\nb_eff_io (system) = " << fmt(best < 0 ? 0 : best) << " MiB/s on " << best_procs
       << " processes (maximum over partitions)\n";
  if (meets) {
    text << "  meets the paper's rule (T >= 15 min, all patterns, §5.1)\n";
  } else {
    text << "  does NOT meet the paper's rule for a b_eff_io value:";
    for (const auto &r : reasons)
      text << "\n    - " << r;
    text << "\n";
  }
  for (const auto &p : positioning)
    text << "  pattern type 1 positioning: " << p << "\n";
  out["text"] = text.str();
  return out;
}

} // namespace pio::beff
