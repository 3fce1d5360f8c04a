#include "imb_reporter.hpp"

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

std::string benchmark_name(const ModuleResult &block, const TestResult &test) {
  auto it = test.params.find("benchmark");
  return it != test.params.end() && !it->second.empty() ? it->second : block.module;
}

/// Single transfers by IMB's own classification (IMB 3.2 User Guide §3.3.1 and §4.2.1 Table 2).
bool single_transfer(const std::string &name) {
  static const std::vector<std::string> names = {"PingPong",   "PingPing",  "Unidir_Get",
                                                 "Unidir_Put", "Bidir_Get", "Bidir_Put"};
  for (const auto &n : names)
    if (name == n)
      return true;
  return name.rfind("S_", 0) == 0;
}

Layout layout(const std::string &name, const CommSemantics &comm, int groups) {
  if (comm.report == Report::Latency)
    return name == "Barrier" || name == "Open_Close" ? Layout::RangeSync : Layout::Range;
  // With several groups IMB shows the spread over all groups' ranks even for single transfers
  // (§6, Sample 2: Multi-PingPing).
  return single_transfer(name) && groups <= 1 ? Layout::Time : Layout::RangeBw;
}

std::vector<std::string> columns(Layout l) {
  switch (l) {
  case Layout::Time:
    return {"#bytes", "#repetitions", "t[usec]", "Mbytes/sec"};
  case Layout::RangeBw:
    return {"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"};
  case Layout::Range:
    return {"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"};
  case Layout::RangeSync:
    return {"#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"};
  }
  return {};
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
  } else {
    out << "# Benchmarking " << name << "\n";
    out << "# #processes = " << test.procs << "\n";
  }
  const int idle = run.processes - per_group * groups;
  if (per_group > 0 && idle > 0)
    out << "# ( " << idle << " additional process" << (idle == 1 ? "" : "es")
        << " waiting in MPI_Barrier)\n";
  // The unit of Mbytes/sec when the module states it (IMB 3.2: 2^20 B/s; IMB 2019+: 10^6 B/s).
  auto unit = test.params.find("mbytes_unit");
  if (unit != test.params.end() && cols.back() == "Mbytes/sec")
    out << "# Mbytes/sec = " << (unit->second == "MB" ? "10^6" : "2^20") << " bytes/sec\n";
  out << line;
  for (const auto &c : cols)
    out << text(c);
  out << "\n";
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
  const Layout l = layout(name, *test.comm, test.groups);
  const std::string table =
      name + "|" + std::to_string(test.procs) + "|" + std::to_string(test.groups);
  if (table != table_) {
    print_header(out_, run, name, test, columns(l));
    table_ = table;
  }
  const OpTimes &op = *test.summary.op;
  // The results keep MiB/s; a module asking for IMB 2019+'s unit gets 10^6 B/s here.
  auto unit = test.params.find("mbytes_unit");
  const double mbytes =
      op.mbytes_per_s * (unit != test.params.end() && unit->second == "MB" ? 1.048576 : 1.0);
  std::string row;
  if (l != Layout::RangeSync)
    row += integer(test.comm->message_bytes);
  row += integer(test.comm->ops_per_unit);
  if (l == Layout::Time) {
    row += real(op.t_max_us) + real(mbytes);
  } else {
    row += real(op.t_min_us) + real(op.t_max_us) + real(op.t_avg_us);
    if (l == Layout::RangeBw)
      row += real(mbytes);
  }
  out_ << row << "\n";
}

} // namespace pio::harness
