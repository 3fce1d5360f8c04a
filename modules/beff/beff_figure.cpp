#include "beff_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pio::b_eff {

namespace {
constexpr double kMB = 1e6; // the paper's MByte/s (b_eff prints bytes/s / 1e6)

double mb(double bytes_per_s) { return bytes_per_s / kMB; }

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN(); // FigureValue's rule
} // namespace

Curves curves_from(const FigureFacts &facts, const ModuleResult &results) {
  Curves c = empty_curves(facts.patterns.size(), facts.lengths.size(), facts.methods.size());
  for (const TestResult &t : results.tests) {
    if (t.error || t.index < 0 || static_cast<size_t>(t.index) >= facts.tests.size())
      continue;
    const TestMeta &m = facts.tests[static_cast<size_t>(t.index)];
    const auto &loops = facts.looplengths.at(static_cast<size_t>(t.index));
    for (const Repetition &r : t.reps) {
      // The module counted the warm-up repetitions (TestContext::rep); the results do not.
      const auto at = static_cast<size_t>(r.rep + results.warm_up_reps);
      if (at >= loops.size())
        continue;
      const double b = bandwidth(facts.lengths.at(static_cast<size_t>(m.length)),
                                 facts.patterns.at(static_cast<size_t>(m.pattern)).messages,
                                 loops[at], r.rank_time_s.max);
      record(c, m.pattern, m.length, m.method, b);
    }
  }
  return c;
}

Figure make_figure(const FigureFacts &facts, const ModuleResult &results) {
  const Curves c = curves_from(facts, results);
  const Summary s = summarize(facts.patterns, c.best, facts.measured);
  const double n = std::max(1, facts.processes);
  const size_t lmax = facts.lengths.size() - 1;
  // What was not measured says so (NaN), never 0: ping-pong needs the extra patterns and
  // L_max, the values at L_max need L_max, the memory is unknown when Lmax was given.
  const bool at_lmax = facts.measured[lmax];
  double ping_pong = kNotMeasured;
  for (size_t p = 0; p < facts.patterns.size(); ++p)
    if (facts.patterns[p].name == "ping-pong" && at_lmax)
      ping_pong = c.best[p][lmax];
  const auto if_lmax = [&](double v) { return at_lmax ? v : kNotMeasured; };
  const double memory =
      facts.memory_per_process > 0 ? static_cast<double>(facts.memory_per_process) : kNotMeasured;

  Figure f;
  f.name = "b_eff";
  f.values = {
      {"b_eff", mb(s.b_eff), "MB/s"},
      {"b_eff per process", mb(s.b_eff) / n, "MB/s"},
      {"L_max", static_cast<double>(facts.lengths[lmax]), "B"},
      {"ping-pong bandwidth at L_max", mb(ping_pong), "MB/s"},
      {"b_eff at L_max", if_lmax(mb(s.b_eff_at[lmax])), "MB/s"},
      {"b_eff at L_max per process", if_lmax(mb(s.b_eff_at[lmax]) / n), "MB/s"},
      {"b_eff at L_max per process, ring patterns", if_lmax(mb(s.rings_at[lmax]) / n), "MB/s"},
      {"ring patterns (logavg)", mb(s.rings), "MB/s"},
      {"random patterns (logavg)", mb(s.random), "MB/s"},
      {"processes", n, ""},
      {"memory per process", memory, "B"},
      {"random seed", static_cast<double>(facts.seed), ""},
  };

  FigureTable t1{"Table 1 (b_eff paper §4.1)",
                 {"processes", "b_eff MB/s", "b_eff/proc MB/s", "L_max", "ping-pong MB/s",
                  "b_eff@L_max MB/s", "b_eff@L_max/proc MB/s", "rings@L_max/proc MB/s"},
                 {}};
  const auto cell = [](double v) -> Cell {
    return std::isnan(v) ? Cell{std::string("not measured")} : Cell{v};
  };
  t1.rows.push_back({std::int64_t{facts.processes}, mb(s.b_eff), mb(s.b_eff) / n,
                     std::int64_t{facts.lengths[lmax]}, cell(mb(ping_pong)),
                     cell(if_lmax(mb(s.b_eff_at[lmax]))), cell(if_lmax(mb(s.b_eff_at[lmax]) / n)),
                     cell(if_lmax(mb(s.rings_at[lmax]) / n))});
  f.tables.push_back(t1);

  FigureTable curve{"b_eff per message length (max over methods and reps)",
                    {"L", "b_eff MB/s", "per proc MB/s", "rings MB/s", "random MB/s"},
                    {}};
  for (size_t l = 0; l < facts.lengths.size(); ++l)
    if (facts.measured[l])
      curve.rows.push_back({std::int64_t{facts.lengths[l]}, mb(s.b_eff_at[l]),
                            mb(s.b_eff_at[l]) / n, mb(s.rings_at[l]), mb(s.random_at[l])});
  f.tables.push_back(curve);

  FigureTable pats{
      "patterns",
      {"pattern", "family", "layout", "procs", "messages", "avg over L MB/s", "at L_max MB/s"},
      {}};
  const char *family[] = {"ring", "random", "extra (not averaged)"};
  for (size_t p = 0; p < facts.patterns.size(); ++p) {
    const PatternInfo &pi = facts.patterns[p];
    pats.rows.push_back({pi.name, std::string(family[static_cast<int>(pi.family)]), pi.layout,
                         std::int64_t{pi.participants}, std::int64_t{pi.messages},
                         mb(s.pattern_average[p]), mb(c.best[p][lmax])});
  }
  f.tables.push_back(pats);

  // The same definition with one method alone (ping-pong and extra patterns do not enter it).
  FigureTable methods{"methods (b_eff with one method alone)", {"method", "b_eff MB/s"}, {}};
  for (size_t m = 0; m < facts.methods.size(); ++m) {
    try {
      const Summary sm = summarize(facts.patterns, c.by_method[m], facts.measured);
      methods.rows.push_back({facts.methods[m], mb(sm.b_eff)});
    } catch (const std::exception &) {
      methods.rows.push_back({facts.methods[m], std::string("not measured")});
    }
  }
  f.tables.push_back(methods);

  FigureTable protocol{"protocol: b per pattern and length, max over reps", {"pattern", "L"}, {}};
  for (const auto &m : facts.methods)
    protocol.columns.push_back(m + " MB/s");
  for (size_t p = 0; p < facts.patterns.size(); ++p)
    for (size_t l = 0; l < facts.lengths.size(); ++l) {
      if (!facts.measured[l])
        continue;
      std::vector<Cell> &row = protocol.rows.emplace_back();
      row.reserve(2 + facts.methods.size());
      row.emplace_back(std::in_place_type<std::string>, facts.patterns[p].name);
      row.emplace_back(std::in_place_type<std::int64_t>, facts.lengths[l]);
      for (size_t m = 0; m < facts.methods.size(); ++m)
        row.emplace_back(std::in_place_type<double>, mb(c.by_method[m][p][l]));
    }
  protocol.detail = true; // a row per pattern, length and method: the results file's
  f.tables.push_back(protocol);

  f.notes.push_back("b_eff = logavg(logavg over ring patterns of sum_L(max_mthd(max_rep b))/21, "
                    "the same over random patterns), b = L * messages * looplength / max over "
                    "processes of the loop time (b_eff paper §4); MB/s = 10^6 bytes/s");
  if (s.lengths_measured != static_cast<int>(facts.lengths.size()))
    f.notes.push_back("only " + std::to_string(s.lengths_measured) +
                      " of the 21 message lengths "
                      "were measured (Lengths): not a valid b_eff");
  if (!s.has_rings || !s.has_random)
    f.notes.push_back("ring or random patterns were left out (Patterns): not a valid b_eff");
  if (results.reps < 3)
    f.notes.push_back("ModuleReps " + std::to_string(results.reps) +
                      ": b_eff takes the maximum over 3 repetitions (b_eff paper §4)");
  f.notes.push_back("L_max = " + std::to_string(facts.lengths[lmax]) +
                    " B; memory per process: " + facts.memory_source);
  f.notes.push_back("random patterns drawn with seed " + std::to_string(facts.seed));
  f.notes.push_back("messages walk through send and receive buffers of " +
                    std::to_string(facts.walk_bytes) +
                    " B each, a new block per execution (b_eff 3.6's buffers, (L + 16) x 6)");
  if (facts.stamps_every_byte)
    f.notes.push_back("Verify on: every byte of every message is stamped and checked inside the "
                      "loops, so the loop times include that work: not a b_eff to compare");
  return f;
}

} // namespace pio::b_eff
