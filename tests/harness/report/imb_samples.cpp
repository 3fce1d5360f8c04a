#include "imb_samples.hpp"

#include <algorithm>

namespace pio::test {

namespace {

CommSemantics comm(std::int64_t bytes, std::int64_t ops, Report report, ImbTable table = {}) {
  CommSemantics c;
  c.message_bytes = bytes;
  c.ops_per_unit = ops;
  c.report = report;
  c.table = std::move(table);
  return c;
}

/// An IMB table's typed fields, as the IMB families declare them.
ImbTable table(TimeColumns time, BytesColumn bytes, TableMode mode, MbytesUnit unit,
               GroupRows rows = GroupRows::Auto, std::vector<std::vector<int>> group_ranks = {}) {
  ImbTable t;
  t.time = time;
  t.bytes = bytes;
  t.mode = mode;
  t.unit = unit;
  t.rows = rows;
  t.group_ranks = std::move(group_ranks);
  return t;
}

/// One group's times: t_min, t_avg, t_max in µs and Mbytes/sec.
OpTimes times(int group, int ranks, double t_min, double t_avg, double t_max, double mbytes) {
  return OpTimes{group, ranks, t_min, t_avg, t_max, mbytes};
}

/// A test of one repetition whose groups measured `groups` (the worst one is the summary's).
TestResult imb_test(int index, const std::string &benchmark, int procs, CommSemantics c,
                    std::map<std::string, std::string> params, std::vector<OpTimes> groups) {
  TestResult t;
  t.index = index;
  t.label = benchmark + " " + std::to_string(c.message_bytes);
  t.buffer_size = c.message_bytes;
  t.file_use = FileUse::None;
  t.procs = procs;
  t.groups = static_cast<int>(groups.size());
  t.params = std::move(params);
  t.params["benchmark"] = benchmark;
  c.table.title = benchmark;
  t.comm = c;
  const OpTimes worst =
      *std::max_element(groups.begin(), groups.end(),
                        [](const OpTimes &a, const OpTimes &b) { return a.t_max_us < b.t_max_us; });
  Repetition r;
  r.units = 1;
  r.bytes = c.message_bytes * c.ops_per_unit * procs;
  r.aggregate_time_s = worst.t_max_us * 1e-6 * static_cast<double>(c.ops_per_unit);
  PhaseResult p;
  p.units = 1;
  p.bytes = r.bytes;
  p.aggregate_time_s = r.aggregate_time_s;
  p.groups = groups;
  r.phases = {p};
  r.op = worst;
  t.reps = {r};
  t.summary.op = worst;
  return t;
}

ModuleResult block(const std::string &module, std::vector<TestResult> tests) {
  ModuleResult b;
  b.module = module;
  b.module_name = module;
  b.label = module;
  b.config_location = "imb.conf:1";
  b.output = Output::Imb;
  b.reps = 1;
  b.tests = std::move(tests);
  return b;
}

RunResult run_of(int processes, std::vector<ModuleResult> blocks) {
  RunResult run;
  run.schema_version = 2;
  run.tool_version = "0.2.0";
  run.processes = processes;
  run.modules = std::move(blocks);
  run.status = "complete";
  return run;
}

} // namespace

RunResult imb_modes_run() {
  const Report both = Report::Both, latency = Report::Latency;
  const TimeColumns single = TimeColumns::Single, range = TimeColumns::Range;
  const BytesColumn sized = BytesColumn::Shown;
  const MbytesUnit mib = MbytesUnit::MiB;
  const ImbTable put = table(single, sized, TableMode::Aggregate, mib),
                 put_nonaggr = table(single, sized, TableMode::NonAggregate, mib),
                 window = table(range, sized, TableMode::None, MbytesUnit::Unstated),
                 s_write = table(single, sized, TableMode::Aggregate, mib),
                 p_read = table(range, sized, TableMode::Aggregate, mib),
                 open_close =
                     table(range, BytesColumn::None, TableMode::None, MbytesUnit::Unstated);
  const std::map<std::string, std::string> aggr{{"mode", "aggregate"}, {"mbytes_unit", "MiB"}};
  const std::map<std::string, std::string> nonaggr{{"mode", "non-aggregate"},
                                                   {"mbytes_unit", "MiB"}};
  return run_of(
      2, {block("imb_unidir_put", {imb_test(0, "Unidir_Put", 2, comm(0, 1000, both, put), aggr,
                                            {times(0, 2, 0.01, 0.01, 0.02, 0)}),
                                   imb_test(1, "Unidir_Put", 2, comm(65536, 640, both, put), aggr,
                                            {times(0, 2, 55.1, 58.3, 60.8, 1027.96)})}),
          block("imb_unidir_put", {imb_test(0, "Unidir_Put", 2, comm(0, 100, both, put_nonaggr),
                                            nonaggr, {times(0, 2, 1.4, 1.5, 1.52, 0)}),
                                   imb_test(1, "Unidir_Put", 2, comm(65536, 100, both, put_nonaggr),
                                            nonaggr, {times(0, 2, 9.1, 9.2, 9.39, 6656.02)})}),
          block("imb_window", {imb_test(0, "Window", 2, comm(1024, 100, latency, window), {},
                                        {times(0, 2, 14.5, 14.51, 14.52, 0)})}),
          block("imb_s_write_indv", {imb_test(0, "S_Write_indv", 1, comm(1024, 50, both, s_write),
                                              aggr, {times(0, 1, 12.3, 12.3, 12.3, 79.4)})}),
          block("imb_p_read_shared", {imb_test(0, "P_Read_shared", 2, comm(1024, 50, both, p_read),
                                               aggr, {times(0, 2, 11.5, 17.31, 23.11, 42.26)})}),
          block("imb_open_close", {imb_test(0, "Open_Close", 2, comm(0, 10, latency, open_close),
                                            {}, {times(0, 2, 503.02, 503.02, 503.03, 0)})})});
}

RunResult imb_multi_run() {
  const Report both = Report::Both;
  const std::map<std::string, std::string> multi{
      {"multi_outflag", "1"}, {"group_ranks", "0 1;2 3"}, {"mbytes_unit", "MiB"}};
  const std::map<std::string, std::string> one{{"multi_outflag", "1"}, {"mbytes_unit", "MiB"}};
  const ImbTable pingpong = table(TimeColumns::Single, BytesColumn::Shown, TableMode::None,
                                  MbytesUnit::MiB, GroupRows::Each, {{0, 1}, {2, 3}}),
                 sendrecv = table(TimeColumns::Range, BytesColumn::Shown, TableMode::None,
                                  MbytesUnit::MiB, GroupRows::Each),
                 barrier = table(TimeColumns::Range, BytesColumn::None, TableMode::None,
                                 MbytesUnit::MiB, GroupRows::Each, {{0, 1}, {2, 3}});
  return run_of(
      4, {block("imb_pingpong",
                {imb_test(0, "PingPong", 4, comm(0, 1000, both, pingpong), multi,
                          {times(0, 2, 0.7, 0.74, 0.76, 0), times(1, 2, 0.8, 0.85, 0.88, 0)}),
                 imb_test(1, "PingPong", 4, comm(1024, 1000, both, pingpong), multi,
                          {times(0, 2, 0.9, 0.92, 0.93, 1050.07),
                           times(1, 2, 0.85, 0.87, 0.88, 1109.73)})}),
          block("imb_sendrecv", {imb_test(0, "Sendrecv", 4, comm(1024, 1000, both, sendrecv), one,
                                          {times(0, 4, 1.1, 1.15, 1.2, 1627.6)})}),
          block("imb_barrier",
                {imb_test(0, "Barrier", 4, comm(0, 1000, Report::Latency, barrier), multi,
                          {times(0, 2, 1.29, 1.3, 1.31, 0), times(1, 2, 1.2, 1.25, 1.27, 0)})})});
}

} // namespace pio::test
