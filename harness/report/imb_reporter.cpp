#include "report/imb_reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace pio::harness {

namespace {
/// IMB prints every column 13 characters wide.
constexpr int kWidth = 13;

enum class Layout {
  Time,      ///< #bytes #repetitions t[usec] Mbytes/sec
  RangeBw,   ///< #bytes #repetitions t_min t_max t_avg Mbytes/sec
  Range,     ///< #bytes #repetitions t_min t_max t_avg
  RangeSync, ///< #repetitions t_min t_max t_avg
};

const ImbTable &table_of(const TestResult &test) { return test.comm->table; }

std::string benchmark_name(const ModuleResult &block, const TestResult &test) {
  const std::string &title = table_of(test).title;
  return title.empty() ? block.module : title;
}

/// IMB -multi 1 (outflag 1): every group's row, with a Group column (IMB_output.c, group_mode 1).
bool every_group(const TestResult &test) { return table_of(test).rows == GroupRows::Each; }

Layout layout(const TestResult &test) {
  const ImbTable &t = table_of(test);
  if (test.comm->report == Report::Latency)
    return t.bytes == BytesColumn::None ? Layout::RangeSync : Layout::Range;
  // IMB shows a single transfer's t = t_max alone, except under -multi 0, where it is the spread
  // over all groups' ranks (§6, Sample 2: Multi-PingPing); -multi 1 shows each group's t.
  const bool spread = t.rows == GroupRows::Auto ? test.groups > 1 : t.rows == GroupRows::Worst;
  return t.time == TimeColumns::Single && !spread ? Layout::Time : Layout::RangeBw;
}

std::vector<std::string> columns(Layout l, bool groups) {
  std::vector<std::string> c;
  if (groups)
    c.push_back("Group");
  switch (l) {
  case Layout::Time:
    c.insert(c.end(), {"#bytes", "#repetitions", "t[usec]", "Mbytes/sec"});
    break;
  case Layout::RangeBw:
    c.insert(c.end(),
             {"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"});
    break;
  case Layout::Range:
    c.insert(c.end(), {"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"});
    break;
  case Layout::RangeSync:
    c.insert(c.end(), {"#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"});
    break;
  }
  return c;
}

std::string integer(long long v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%*lld", kWidth, v);
  return buf;
}

std::string real(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%*.2f", kWidth, v);
  return buf;
}

std::string text(const std::string &s) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%*s", kWidth, s.c_str());
  return buf;
}

/// IMB's "# Group  0:     0    1" lines (IMB_show_procids): each group's world ranks, 16 a line.
void print_group_ranks(std::ostream &out, const std::vector<std::vector<int>> &groups) {
  for (size_t g = 0; g < groups.size(); ++g) {
    char head[32];
    std::snprintf(head, sizeof head, "# Group  %zu: ", g);
    out << head;
    for (size_t k = 0; k < groups[g].size(); ++k) {
      char cell[16];
      std::snprintf(cell, sizeof cell, " %4d", groups[g][k]);
      out << (k > 0 && k % 16 == 0 ? "\n# " : "") << cell;
    }
    out << "\n#\n";
  }
}

/// IMB-EXT's and IMB-IO's "MODE: AGGREGATE" / "MODE: NON-AGGREGATE" (IMB 3.2 User Guide §6).
std::string mode_line(const TestResult &test) {
  switch (table_of(test).mode) {
  case TableMode::Aggregate:
    return "#\n#    MODE: AGGREGATE\n#\n";
  case TableMode::NonAggregate:
    return "#\n#    MODE: NON-AGGREGATE\n#\n";
  case TableMode::None:
    break;
  }
  return "";
}

/// Mbytes/sec in the table's unit: the results keep MiB/s (2^20 B/s).
double mbytes_in_unit(const TestResult &test, double mib_per_s) {
  return mib_per_s * (table_of(test).unit == MbytesUnit::MB ? 1.048576 : 1.0);
}

void print_header(std::ostream &out, const RunResult &run, const std::string &name,
                  const TestResult &test, const std::vector<std::string> &cols) {
  const std::string line = "#" + std::string(cols.size() * kWidth - 1, '-') + "\n";
  const int groups = std::max(1, test.groups);
  const int per_group = test.procs / groups;
  out << "\n" << line;
  if (groups > 1) {
    out << "# Benchmarking Multi-" << name << "\n";
    out << "# ( " << groups << " groups of " << per_group
        << " processes each running simultaneous )\n";
    print_group_ranks(out, table_of(test).group_ranks);
  } else {
    out << "# Benchmarking " << name << "\n";
    out << "# #processes = " << test.procs << "\n";
  }
  const int idle = run.processes - per_group * groups;
  if (per_group > 0 && idle > 0)
    out << "# ( " << idle << " additional process" << (idle == 1 ? "" : "es")
        << " waiting in MPI_Barrier)\n";
  // The unit of Mbytes/sec when the module states it (IMB 3.2: 2^20 B/s; IMB 2019+: 10^6 B/s).
  const MbytesUnit unit = table_of(test).unit;
  if (unit != MbytesUnit::Unstated && cols.back() == "Mbytes/sec")
    out << "# Mbytes/sec = " << (unit == MbytesUnit::MB ? "10^6" : "2^20") << " bytes/sec\n";
  if (!table_of(test).methodology.empty())
    out << "# Methodology: " << table_of(test).methodology << "\n";
  out << line << mode_line(test);
  for (const auto &c : cols)
    out << text(c);
  out << "\n";
}

/// One row of the table: `op`'s times in layout l (without the Group column).
std::string row(Layout l, const TestResult &test, const OpTimes &op) {
  const double mbytes = mbytes_in_unit(test, op.mbytes_per_s);
  std::string r;
  if (l != Layout::RangeSync)
    r += integer(test.comm->message_bytes);
  // Operations per sample: per unit times the units (IMB 2019's -sync runs one per unit).
  const std::int64_t units = test.reps.empty() ? 1 : std::max<std::int64_t>(1, test.reps[0].units);
  r += integer(test.comm->ops_per_unit * units);
  if (l == Layout::Time)
    return r + real(op.t_max_us) + real(mbytes);
  r += real(op.t_min_us) + real(op.t_max_us) + real(op.t_avg_us);
  return l == Layout::RangeBw ? r + real(mbytes) : r;
}

/// Every group's times in the repetition the summary reports (the best one), else the summary's.
std::vector<OpTimes> group_times(const TestResult &test) {
  const OpTimes &best = *test.summary.op;
  for (const auto &rep : test.reps)
    if (rep.op && rep.op->t_max_us == best.t_max_us && !rep.phases.empty() &&
        !rep.phases.front().groups.empty())
      return rep.phases.front().groups;
  return {best};
}
} // namespace

ImbReporter::ImbReporter(std::ostream &out) : out_(out) {}

void ImbReporter::block_started(const RunResult &, const ModuleResult &, int, int) {
  table_.clear();
}

void ImbReporter::test_finished(const RunResult &run, const ModuleResult &block,
                                const TestResult &test) {
  if (block.output != Output::Imb || !test.comm || !test.summary.op)
    return; // failures are on the console; tests without per-operation times have no IMB row
  const std::string name = benchmark_name(block, test);
  const Layout l = layout(test);
  const bool all = every_group(test);
  const std::string table = name + "|" + std::to_string(test.procs) + "|" +
                            std::to_string(test.groups) + "|" + mode_line(test);
  if (table != table_) {
    print_header(out_, run, name, test, columns(l, all));
    table_ = table;
  }
  if (!all) {
    out_ << row(l, test, *test.summary.op) << "\n";
    return;
  }
  // IMB -multi 1: a blank line, then one row per group, for each length.
  out_ << "\n";
  for (const OpTimes &g : group_times(test))
    out_ << integer(g.group) << row(l, test, g) << "\n";
}

} // namespace pio::harness
