#include "report/console_reporter.hpp"

#include <cstdio>
#include <iterator>
#include <map>

#include "config/harness_directives.hpp"
#include "pio/directive.hpp"
#include "report/figure_text.hpp"
#include "report/flag_text.hpp"
#include "report/merit_summary.hpp"

namespace pio::harness {

namespace {
std::string fmt(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string right(const std::string &s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// "    clat of phase 'write' (4096 ops, submission to completion): min 2.1 p50 3.0 ... max 41 us"
/// for every phase of rep with per-operation latencies; "" without.
std::string latency_lines(const Repetition &rep, const std::string &which) {
  std::string out;
  for (const PhaseResult &p : rep.phases) {
    if (!p.latency)
      continue;
    const OpLatencies &l = *p.latency;
    out += "    clat" + which + (rep.phases.size() > 1 ? " of phase '" + p.label + "'" : "") +
           " (" + std::to_string(l.count) + " ops, submission to completion" +
           (p.units_overlapped ? "; units overlapped" : "") + "): min " + fmt("%.1f", l.min_us);
    for (size_t i = 0; i < l.percentiles_us.size() && i < std::size(kLatencyPercentiles); ++i)
      out += " " + latency_percentile_name(kLatencyPercentiles[i]) + " " +
             fmt("%.1f", l.percentiles_us[i]);
    out += " max " + fmt("%.1f", l.max_us) + " mean " + fmt("%.1f", l.mean_us) + " us\n";
  }
  return out;
}

/// "  [page_cache warm_up]" after a row, "" for a clean one.
std::string flag_cell(const std::vector<FlagRecord> &flags) {
  return flags.empty() ? std::string() : "  [" + flag_names(flags) + "]";
}

/// "test buffer units rep" cells, common to both tables.
std::string lead_cells(const std::string &label, const std::string &buffer,
                       const std::string &units, const std::string &rep) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-18s %8s %8s %5s", label.c_str(), buffer.c_str(),
                units.c_str(), rep.c_str());
  return buf;
}
} // namespace

ConsoleReporter::ConsoleReporter(std::ostream &out, TableOptions options)
    : out_(out), options_(options) {}

void ConsoleReporter::run_started(const RunResult &run) {
  out_ << "pio-bench " << run.tool_version << ": " << run.processes << " processes, test file "
       << run.test_file << " (" << run.file_system << "), results " << run.results_path << "\n";
}

void ConsoleReporter::block_started(const RunResult &run, const ModuleResult &block, int index,
                                    int count) {
  out_ << "\n== [" << index + 1 << "/" << count << "] " << block.module;
  std::string base = block.module; // a derived label starts so (block_label.hpp)
  auto mode = block.settings.find("Mode");
  if (mode != block.settings.end() && !mode->second.empty()) {
    out_ << " (";
    base += "(";
    for (size_t i = 0; i < mode->second.size(); ++i) {
      out_ << (i ? " " : "") << mode->second[i];
      base += (i ? "," : "") + mode->second[i];
    }
    out_ << ")";
    base += ")";
  }
  // The label says which settings the block ran: a derived one's settings, or the user's Label.
  if (block.label.rfind(base + " ", 0) == 0)
    out_ << block.label.substr(base.size());
  else if (block.label != base && block.label != block.module && block.label != block.module_name)
    out_ << "  \"" << block.label << "\"";
  // The interface, unless the harness's default or the label says it already.
  if (block.interface != find_harness_directive("Interface")->spec.default_value &&
      block.label.find("Interface=" + block.interface) == std::string::npos)
    out_ << "  Interface " << block.interface;
  out_ << "  " << block.config_location << "  reps ";
  if (block.reps_auto) // ModuleReps auto: its target and cap
    out_ << "auto (+-" << fmt("%g", 100 * block.reps_target) << " %, at most "
         << fmt("%g", block.reps_time_cap_s) << " s per test)";
  else
    out_ << block.reps;
  if (block.warm_up_reps > 0) // run first, not recorded
    out_ << " after " << block.warm_up_reps << " warm-up";
  if (block.cache_mode != CacheMode::Keep)
    out_ << "  CacheMode " << to_string(block.cache_mode);
  if (run.rounds > 1 && !run.block_rounds.empty()) // Rounds: which round this block run is
    out_ << "  round " << run.block_rounds.back().round << "/" << run.rounds;
  out_ << "\n";
  // The column header comes with the block's first test, in that test's unit (MiB/s, ops/s).
  header_unit_.clear();
}

void ConsoleReporter::print_column_header(const char *unit) {
  header_unit_ = unit;
  const std::string u = unit;
  if (options_.show_averages) {
    // One row per test: the spread over repetitions (median, min..max, stddev), so that an
    // unstable series (say 2.7 to 3229 MiB/s) is never hidden behind a mean.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s %12s %21s %10s %6s %21s %11s %11s %11s %11s",
                  lead_cells("test", "buffer", "units", "reps").c_str(), ("med " + u).c_str(),
                  ("min..max " + u).c_str(), ("sd " + u).c_str(), "cv", "95% CI of med",
                  "med agg s", "rank min s", "rank mean s", "rank max s");
    out_ << buf;
    if (options_.open_time)
      out_ << " med open s";
    if (options_.close_time)
      out_ << " med close s";
  } else {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s %12s %11s %11s %11s %11s",
                  lead_cells("test", "buffer", "units", "rep").c_str(), unit, "agg time s",
                  "rank min s", "rank mean s", "rank max s");
    out_ << buf;
    if (options_.open_time)
      out_ << "     open s";
    if (options_.close_time)
      out_ << "    close s";
  }
  if (options_.header_offset)
    out_ << "     header";
  out_ << "\n";
}

std::string ConsoleReporter::optional_cells(double open_s, double close_s,
                                            std::int64_t header_offset) const {
  // Widths match the column headers (" med close s" is one wider than "    close s").
  std::string s;
  if (options_.open_time)
    s += " " + right(fmt("%.6f", open_s), 10);
  if (options_.close_time)
    s += " " + right(fmt("%.6f", close_s), options_.show_averages ? 11 : 10);
  if (options_.header_offset)
    s += " " + right(format_size(header_offset), 10);
  return s;
}

void ConsoleReporter::print_rep_row(const TestResult &test, const Repetition &rep) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s %12s %11s %11s %11s %11s",
                lead_cells(test.label, format_size(test.buffer_size), std::to_string(rep.units),
                           std::to_string(rep.rep))
                    .c_str(),
                fmt("%.2f", rate_of(rep, test.merit)).c_str(),
                fmt("%.6f", rep.aggregate_time_s).c_str(), fmt("%.6f", rep.rank_time_s.min).c_str(),
                fmt("%.6f", rep.rank_time_s.mean).c_str(),
                fmt("%.6f", rep.rank_time_s.max).c_str());
  out_ << buf << optional_cells(rep.open_time_s, rep.close_time_s, test.header_offset)
       << flag_cell(rep.flags) << "\n"
       << latency_lines(rep, "");
}

void ConsoleReporter::print_average_row(const TestResult &test) {
  const TestSummary &s = test.summary;
  const Stats &rate = rate_stats(test);
  const std::string range = fmt("%.2f", rate.min) + ".." + fmt("%.2f", rate.max);
  // The steadiness of the rate (for a communication test, of t_avg: the results say which).
  const Steadiness &st = s.steadiness;
  const std::string cv = test.reps.size() > 1 ? fmt("%.1f%%", 100 * st.cv) : "-";
  const std::string ci =
      !test.comm && st.ci_low ? fmt("%.2f", *st.ci_low) + ".." + fmt("%.2f", *st.ci_high) : "-";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s %12s %21s %10s %6s %21s %11s %11s %11s %11s",
                lead_cells(test.label, format_size(test.buffer_size),
                           std::to_string(test.reps.back().units), std::to_string(test.reps.size()))
                    .c_str(),
                fmt("%.2f", rate.median).c_str(), range.c_str(), fmt("%.2f", rate.stddev).c_str(),
                cv.c_str(), ci.c_str(), fmt("%.6f", s.aggregate_time_s.median).c_str(),
                fmt("%.6f", s.rank_min_s.min).c_str(), fmt("%.6f", s.rank_mean_s.mean).c_str(),
                fmt("%.6f", s.rank_max_s.max).c_str());
  out_ << buf << optional_cells(s.open_time_s.median, s.close_time_s.median, test.header_offset)
       << flag_cell(test.flags) << "\n"
       << latency_lines(test.reps.back(), " of rep " + std::to_string(test.reps.back().rep));
}

void ConsoleReporter::test_finished(const RunResult &, const ModuleResult &block,
                                    const TestResult &test) {
  const bool rows =
      block.output == Output::Table || (block.output == Output::Figure && options_.all_tests);
  if (rows && !test.reps.empty()) {
    if (header_unit_ != merit_unit(test.merit)) // a test counting operations shows ops/s
      print_column_header(merit_unit(test.merit));
    if (options_.show_averages)
      print_average_row(test);
    else
      for (const auto &rep : test.reps)
        print_rep_row(test, rep);
    // The test's flags with their reasons, and its notes, under its rows.
    for (const auto &f : test.flags)
      out_ << "    flag " << to_string(f.flag) << ": " << f.reason << "\n";
    for (const auto &n : test.notes)
      out_ << "    note: " << n << "\n";
  }
  if (test.error)
    out_ << "  " << test.label << ": FAILED: " << test.error->message << "\n";
}

void ConsoleReporter::block_finished(const RunResult &, const ModuleResult &block) {
  if (block.error)
    out_ << "  " << block.module << ": FAILED: " << block.error->message << "\n";
  if (block.output == Output::Figure && !options_.all_tests)
    out_ << "  " << block.tests.size() << " tests: a row per repetition in the results file and "
         << "CSV (ShowAllTests on prints them here); the figure summarises them\n";
  if (block.figure && block.output == Output::Table && !block.tests.empty())
    out_ << "  (the rows above: each test's rate over its timed work units; the figure below "
            "has its own units and brackets, its notes say which)\n";
  if (block.figure)
    out_ << "\n" << figure_text(*block.figure, options_.all_tests);
}

void ConsoleReporter::run_finished(const RunResult &run) {
  const bool failed = run.exit_code != 0 || run.status == "failed";
  const std::vector<MeritRow> summary = merit_summary(run);
  if (!summary.empty())
    out_ << "\n" << table_text(merit_table(summary));
  print_flag_summary(run);
  out_ << "\nresults: " << run.results_path << (failed ? "  (some tests FAILED; see above)" : "")
       << "\n";
}

void ConsoleReporter::print_flag_summary(const RunResult &run) {
  int tests = 0, flagged = 0;
  std::map<Flag, int> count;
  std::vector<std::string> lines;
  for (const auto &b : run.modules)
    for (const auto &t : b.tests) {
      ++tests;
      if (t.flags.empty())
        continue;
      ++flagged;
      for (const auto &f : t.flags) {
        ++count[f.flag];
        lines.push_back("  " + b.label + " / " + t.label + ": " + to_string(f.flag) + ": " +
                        f.reason);
      }
    }
  if (flagged == 0) {
    out_ << "\nflags: none (" << tests << " test" << (tests == 1 ? "" : "s")
         << ": no figure the run cannot vouch for)\n";
    return;
  }
  out_ << "\nflags: " << flagged << " of " << tests << " tests carry flags (";
  bool first = true;
  for (Flag f : all_flags())
    if (count.count(f)) {
      out_ << (first ? "" : ", ") << to_string(f) << " " << count[f];
      first = false;
    }
  out_ << "); their figures are not to be taken as measured:\n";
  constexpr size_t kShown = 40;
  for (size_t i = 0; i < lines.size() && i < kShown; ++i)
    out_ << lines[i] << "\n";
  if (lines.size() > kShown)
    out_ << "  ... " << lines.size() - kShown << " more in the results file (\"flags\")\n";
}

} // namespace pio::harness
