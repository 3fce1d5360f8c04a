// The IMB tables of IMB-EXT, IMB-IO and -multi 1 runs against their approved texts: the MODE
// line of the benchmarks with modes (IMB 3.2 User Guide §6) and every group's rows with a Group
// column under -multi 1 (IMB_output.c, as IMB 2021 prints them).
#include <sstream>

#include <catch2/catch.hpp>

#include "approval.hpp"
#include "report/imb_reporter.hpp"
#include "imb_samples.hpp"
#include "sample_run.hpp"

using pio::harness::ImbReporter;

TEST_CASE("IMB-EXT and IMB-IO tables state their mode (AGGREGATE / NON-AGGREGATE)", "[imb]") {
  std::ostringstream out;
  ImbReporter imb(out);
  pio::test::replay(pio::test::imb_modes_run(), imb);
  CHECK(pio::test::matches_approved("imb_modes.txt", out.str()));
}

TEST_CASE("Multi 1 prints every group's row with a Group column and the groups' ranks", "[imb]") {
  std::ostringstream out;
  ImbReporter imb(out);
  pio::test::replay(pio::test::imb_multi_run(), imb);
  CHECK(pio::test::matches_approved("imb_multi1.txt", out.str()));
}

namespace {

/// One test of a block named unlike any IMB kernel, with a "benchmark" param naming a kernel
/// whose table would look different: the table must follow `table` alone.
pio::TestResult typed_test(pio::Report report, pio::ImbTable table, int procs = 2, int groups = 1) {
  pio::CommSemantics c;
  c.message_bytes = 1024;
  c.ops_per_unit = 100;
  c.report = report;
  c.table = std::move(table);
  pio::TestResult t;
  t.label = "1K";
  t.buffer_size = 1024;
  t.file_use = pio::FileUse::None;
  t.procs = procs;
  t.groups = groups;
  // Strings the reporter once keyed on: they must change nothing now.
  t.params = {{"benchmark", "Barrier"},
              {"multi_outflag", "0"},
              {"mbytes_unit", "MB"},
              {"mode", "non-aggregate"},
              {"group_ranks", "7 8"}};
  t.comm = c;
  pio::OpTimes op{0, procs / groups, 1.5, 2.5, 3.5, 100.0};
  pio::PhaseResult p;
  p.groups.push_back(op);
  for (int g = 1; g < groups; ++g)
    p.groups.push_back(pio::OpTimes{g, procs / groups, 1.0, 2.0, 3.0, 110.0});
  pio::Repetition r;
  r.phases = {p};
  r.op = op;
  t.reps = {r};
  t.summary.op = op;
  return t;
}

/// What the ImbReporter prints for one test of a block of module "ring_kernel".
std::string render(const pio::TestResult &t, int processes = 2) {
  pio::RunResult run;
  run.processes = processes;
  pio::ModuleResult block;
  block.module = "ring_kernel";
  block.output = pio::Output::Imb;
  std::ostringstream out;
  ImbReporter imb(out);
  imb.block_started(run, block, 0, 1);
  imb.test_finished(run, block, t);
  return out.str();
}

/// The column header line of a rendered table (the line after the second rule).
std::string header_line(const std::string &text) {
  std::istringstream in(text);
  std::string line, last;
  int rules = 0;
  while (std::getline(in, line)) {
    if (rules == 2 && line.rfind("#", 0) != 0)
      return line;
    if (line.rfind("#---", 0) == 0)
      ++rules;
  }
  return "";
}

} // namespace

TEST_CASE("an IMB table follows the test's typed table fields, not the kernel's name", "[imb]") {
  using pio::BytesColumn;
  using pio::GroupRows;
  using pio::MbytesUnit;
  using pio::Report;
  using pio::TableMode;
  using pio::TimeColumns;
  pio::ImbTable table;
  table.title = "Ring";
  SECTION("defaults: the title, t_min / t_max / t_avg and Mbytes/sec, no unit or mode line") {
    CHECK(render(typed_test(Report::Both, table)) ==
          "\n#-----------------------------------------------------------------------------\n"
          "# Benchmarking Ring\n"
          "# #processes = 2\n"
          "#-----------------------------------------------------------------------------\n"
          "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec\n"
          "         1024          100         1.50         3.50         2.50       100.00\n");
  }
  SECTION("a single transfer: one t column, t_max") {
    table.time = TimeColumns::Single;
    const std::string text = render(typed_test(Report::Both, table));
    CHECK(header_line(text) == "       #bytes #repetitions      t[usec]   Mbytes/sec");
    CHECK(text.find("         1024          100         3.50       100.00\n") != std::string::npos);
  }
  SECTION("time only: no #bytes, no Mbytes/sec") {
    table.bytes = BytesColumn::None;
    const std::string text = render(typed_test(Report::Latency, table));
    CHECK(header_line(text) == " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]");
    CHECK(text.find("          100         1.50         3.50         2.50\n") != std::string::npos);
  }
  SECTION("the MB unit: stated, and Mbytes/sec in 10^6 B/s") {
    table.unit = MbytesUnit::MB;
    const std::string text = render(typed_test(Report::Both, table));
    CHECK(text.find("# Mbytes/sec = 10^6 bytes/sec\n") != std::string::npos);
    CHECK(text.find("       104.86\n") != std::string::npos); // 100 MiB/s = 104.8576 MB/s
  }
  SECTION("the MiB unit stated; the mode line") {
    table.unit = MbytesUnit::MiB;
    table.mode = TableMode::Aggregate;
    const std::string text = render(typed_test(Report::Both, table));
    CHECK(text.find("# Mbytes/sec = 2^20 bytes/sec\n") != std::string::npos);
    CHECK(text.find("#    MODE: AGGREGATE\n") != std::string::npos);
    CHECK(text.find("NON-AGGREGATE") == std::string::npos);
    CHECK(text.find("       100.00\n") != std::string::npos);
  }
  SECTION("every group's row and the groups' ranks") {
    table.time = TimeColumns::Single;
    table.rows = GroupRows::Each;
    table.group_ranks = {{0, 2}, {1, 3}};
    const std::string text = render(typed_test(Report::Both, table, 4, 2), 4);
    CHECK(text.find("# Benchmarking Multi-Ring\n") != std::string::npos);
    CHECK(text.find("# Group  0:     0    2\n#\n# Group  1:     1    3\n") != std::string::npos);
    CHECK(header_line(text) == "        Group       #bytes #repetitions      t[usec]   Mbytes/sec");
    CHECK(text.find("            0         1024          100         3.50       100.00\n") !=
          std::string::npos);
    CHECK(text.find("            1         1024          100         3.00       110.00\n") !=
          std::string::npos);
  }
  SECTION("a single transfer run by groups: the worst group's spread (-multi 0)") {
    table.time = TimeColumns::Single;
    table.rows = GroupRows::Worst;
    const std::string text = render(typed_test(Report::Both, table, 4, 2), 4);
    CHECK(header_line(text) ==
          "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec");
    CHECK(text.find("Group") == std::string::npos);
  }
}
