// COMMTEST description: "The following results contain the graphs of total time versus number
// of messages and MBytes/second versus the message size for each protocol and experiment, as
// well as some simple statistics" - the graphs' data are the "times" table, the statistics
// the "statistics" table.
#include "figure.hpp"

#include <algorithm>

namespace commtest {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

struct Series {
  const TestMeta *first = nullptr; ///< any test of the series (all but N equal)
  std::vector<Timing> timings;
  std::vector<const TestMeta *> tests;
};

pio::Cell optional_cell(const std::optional<double> &v, double scale) {
  if (!v)
    return std::string("-");
  return *v * scale;
}

std::string variant(const TestMeta &t) { return t.reorganised ? "reorganised" : "basic"; }

} // namespace

pio::Figure make_figure(const pio::ModuleResult &results, const std::vector<TestMeta> &meta,
                        const StatsChoice &choice, std::vector<std::string> notes) {
  std::vector<Series> series;
  for (const pio::TestResult &test : results.tests) {
    if (test.error || !test.summary.op || test.index < 0 ||
        static_cast<size_t>(test.index) >= meta.size())
      continue;
    const TestMeta &m = meta[static_cast<size_t>(test.index)];
    auto it = std::find_if(series.begin(), series.end(),
                           [&](const Series &s) { return s.first->same_series(m); });
    if (it == series.end()) {
      series.push_back(Series{&m, {}, {}});
      it = std::prev(series.end());
    }
    it->timings.push_back({m.messages, test.summary.op->t_max_us * 1e-6});
    it->tests.push_back(&m);
  }

  pio::Figure f;
  f.name = "COMMTEST";
  pio::FigureTable stats{"statistics",
                         {"pairing", "experiment", "protocol", "name", "variant", "way", "N1", "N2",
                          "a [us]", "b [ns/B]", "latency [us]", "swap [MiB/s]", "busy [MiB/s]",
                          "idle [MiB/s]", "model err mean [%]", "model err max [%]"},
                         {}};
  pio::FigureTable times{"times",
                         {"pairing", "experiment", "protocol", "variant", "way", "N",
                          "message bytes", "T_N [us]", "MiB/s"},
                         {}};
  double best_swap = 0, best_latency = 0;
  bool have_latency = false, substituted = false;
  int nonpositive = 0; // series whose a <= 0 (T_N2 <= T_N1: noise or a protocol change)
  for (const Series &s : series) {
    const TestMeta &m = *s.first;
    const std::int64_t volume = m.experiment->volume();
    const SeriesStats st = series_stats(s.timings, volume, m.protocol->ordered(), choice);
    substituted = substituted || st.substituted;
    stats.rows.push_back(
        {m.pairing.name, m.experiment->name, "(" + m.protocol->id() + ")", m.protocol->name,
         variant(m), way_name(m.way), st.a ? pio::Cell(st.n1) : pio::Cell(std::string("-")),
         st.a ? pio::Cell(st.n2) : pio::Cell(std::string("-")), optional_cell(st.a, 1e6),
         st.b * 1e9, optional_cell(st.latency_s, 1e6), st.swap_Bps / kMiB,
         optional_cell(st.busy_Bps, 1 / kMiB), optional_cell(st.idle_Bps, 1 / kMiB),
         optional_cell(st.model_error_mean, 100), optional_cell(st.model_error_max, 100)});
    best_swap = std::max(best_swap, st.swap_Bps / kMiB);
    if (st.latency_s && *st.latency_s <= 0)
      ++nonpositive;
    else if (st.latency_s && (!have_latency || *st.latency_s * 1e6 < best_latency)) {
      best_latency = *st.latency_s * 1e6;
      have_latency = true;
    }
    for (size_t i = 0; i < s.timings.size(); ++i) {
      const TestMeta &t = *s.tests[i];
      const double sec = s.timings[i].seconds;
      times.rows.push_back({t.pairing.name, t.experiment->name, "(" + t.protocol->id() + ")",
                            variant(t), way_name(t.way), t.messages, t.message_bytes(), sec * 1e6,
                            sec > 0 ? 2.0 * static_cast<double>(volume) / kMiB / sec : 0.0});
    }
  }
  if (!series.empty())
    f.values.push_back({"best swap bandwidth", best_swap, "MiB/s"});
  if (have_latency)
    f.values.push_back({"lowest positive latency", best_latency, "us"});
  f.tables = {stats, times};
  notes.push_back("T_N is the maximum over the participating processes (best repetition); "
                  "MiB/s = 2 * volume / T_N, the swap bandwidth");
  if (substituted)
    notes.push_back("N1 or N2 was not measured in some series: a uses the two largest N measured");
  if (nonpositive > 0)
    notes.push_back(std::to_string(nonpositive) +
                    " series have a <= 0 (T_N2 <= T_N1): noise or a protocol change; choose other "
                    "N1 / N2");
  if (!choice.model.empty()) {
    std::string ns;
    for (auto n : choice.model)
      ns += (ns.empty() ? "" : " ") + std::to_string(n);
    notes.push_back("model error over the subset N = " + ns);
  }
  f.notes = std::move(notes);
  return f;
}

} // namespace commtest
