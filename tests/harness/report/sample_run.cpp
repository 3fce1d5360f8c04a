#include "sample_run.hpp"

#include <limits>

#include "run/stats.hpp"
#include "run/steadiness.hpp"

namespace pio::test {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

Repetition io_rep(int rep, std::int64_t units, std::int64_t bytes, double agg_s, double open_s,
                  double close_s, Stats ranks) {
  Repetition r;
  r.rep = rep;
  r.open_time_s = open_s;
  r.close_time_s = close_s;
  PhaseResult p;
  p.units = units;
  p.bytes = bytes;
  p.aggregate_time_s = agg_s;
  p.elapsed_time_s = agg_s;
  p.bandwidth_MiBps = static_cast<double>(bytes) / kMiB / agg_s;
  p.rank_time_s = ranks;
  r.phases = {p};
  r.units = units;
  r.bytes = bytes;
  r.aggregate_time_s = agg_s;
  r.bandwidth_MiBps = p.bandwidth_MiBps;
  r.rank_time_s = ranks;
  return r;
}

Stats ranks(double min, double mean, double max) {
  Stats s;
  s.min = min;
  s.mean = mean;
  s.max = max;
  s.count = 4;
  return s;
}

/// The summary the runner computes over the repetitions.
void summarize_reps(TestResult &t) {
  std::vector<double> bw, agg, open, close, rmin, rmean, rmax;
  for (const auto &r : t.reps) {
    bw.push_back(r.bandwidth_MiBps);
    agg.push_back(r.aggregate_time_s);
    open.push_back(r.open_time_s);
    close.push_back(r.close_time_s);
    rmin.push_back(r.rank_time_s.min);
    rmean.push_back(r.rank_time_s.mean);
    rmax.push_back(r.rank_time_s.max);
  }
  t.summary.bandwidth_MiBps = harness::summarize(bw);
  t.summary.aggregate_time_s = harness::summarize(agg);
  t.summary.open_time_s = harness::summarize(open);
  t.summary.close_time_s = harness::summarize(close);
  t.summary.rank_min_s = harness::summarize(rmin);
  t.summary.rank_mean_s = harness::summarize(rmean);
  t.summary.rank_max_s = harness::summarize(rmax);
  t.summary.steadiness = harness::steadiness_of(bw);
}

ModuleResult io_block() {
  ModuleResult b;
  b.module = "simple_strided";
  b.module_name = "Simple Strided (write)";
  b.label = "simple_strided.write";
  b.config_location = "site.conf:12";
  b.library = "modules/libpio_simple_strided.so";
  b.settings = {{"Mode", {"write"}}, {"BufferSize", {"64K", "1M", "4M"}}};
  b.reps = 2;
  b.collective = true;

  TestResult t0;
  t0.index = 0;
  t0.label = "64K";
  t0.buffer_size = 65536;
  t0.header_offset = 0;
  t0.procs = 4;
  t0.file = "/scratch/pio/testfile";
  t0.params = {{"mode", "write"}, {"work_units", "16"}, {"layout", "strided, \"cyclic\""}};
  t0.hints_requested = {{"romio_cb_write", "enable"}};
  t0.hints_in_effect = {{"romio_cb_write", "enable"}, {"cb_buffer_size", "16777216"}};
  // A series as unstable as a busy file system makes it: 2.67 and 3200 MiB/s.
  t0.reps = {io_rep(0, 16, 4194304, 1.5, 0.0125, 0.0031, ranks(0.0123, 0.7, 1.49)),
             io_rep(1, 16, 4194304, 0.00125, 0.01, 0.002, ranks(0.0009, 0.00105, 0.0012))};
  summarize_reps(t0);
  // What the flag rules say of such a series (docs/reference/results.md, "Flags").
  t0.reps[1].flags = {{Flag::PageCache, "100 % of the 4 MiB read was in the page cache"}};
  t0.flags = {{Flag::WideSpread, "the repetitions vary by 141 % (CV), more than 10 %"},
              {Flag::PageCache, "1 of 2 repetitions read from the page cache"}};
  t0.notes = {"the aggregate time is 3.6x the longest rank's own time"};

  TestResult t1 = t0;
  t1.flags.clear();
  t1.notes.clear();
  t1.index = 1;
  t1.label = "1M";
  t1.buffer_size = 1048576;
  t1.header_offset = 4096;
  t1.params = {{"mode", "write"}, {"work_units", "16"}, {"stripe_count", "4"}};
  t1.hints_requested = {{"romio_cb_write", "enable"}, {"striping_factor", "4"}};
  t1.reps = {io_rep(0, 16, 67108864, 0.1, 0.011, 0.0042, ranks(0.081, 0.09, 0.099)),
             io_rep(1, 16, 67108864, 0.08, 0.009, 0.0038, ranks(0.07, 0.075, 0.079))};
  summarize_reps(t1);
  // The page cache after the first repetition's write: 48 of its 64 MiB not yet on storage.
  CacheCheck after;
  after.range_bytes = 67108864;
  after.resident_bytes = 67108864;
  after.dirty_bytes = 50331648;
  after.access = PhaseAccess::Write;
  t1.reps[0].phases.at(0).cache = after;
  t1.reps[0].flags = {{Flag::WriteCache, "75 % of the 64 MiB written was still in the page "
                                         "cache, not on storage, when the write phase ended"}};

  TestResult t2 = t0;
  t2.index = 2;
  t2.label = "4M";
  t2.buffer_size = 4194304;
  t2.params = {{"mode", "write"}, {"work_units", "16"}};
  t2.reps.clear();
  t2.summary = {};
  t2.flags.clear();
  t2.notes.clear();
  t2.error = ErrorRecord{2, "MPI_File_write_at_all: No space left on device", {}};

  b.tests = {t0, t1, t2};

  Figure f;
  f.name = "simple_strided";
  // Plain numbers (never 1.744e+04) and a value not measured (NaN: "not measured", never 0).
  f.values = {{"peak bandwidth", 3200, "MiB/s"},
              {"tests", 3, ""},
              {"file bytes", 98734480, "B"},
              {"mean rate", 17443.26, "MiB/s"},
              {"ping-pong", std::numeric_limits<double>::quiet_NaN(), "MB/s"}};
  FigureTable table;
  table.name = "per buffer size";
  table.columns = {"buffer", "best MiB/s", "reps"};
  table.rows = {{std::string("64K"), 3200.0, std::int64_t(2)},
                {std::string("1M"), 800.0, std::int64_t(2)},
                {std::string("4M"), std::string("failed"), std::int64_t(0)}};
  FigureTable protocol{"protocol", {"buffer", "rep", "MiB/s"}, {}};
  protocol.rows = {{std::string("64K"), std::int64_t(0), 3200.0}};
  protocol.detail = true; // results file only: the console names it and its row count
  f.tables = {table, protocol};
  f.notes = {"4M failed and is not included"};
  b.figure = f;
  return b;
}

TestResult comm_test(int index, const std::string &benchmark, int procs, int groups,
                     CommSemantics comm, double t_min, double t_avg, double t_max, double mbytes) {
  TestResult t;
  t.index = index;
  t.label = benchmark + " " + std::to_string(comm.message_bytes);
  t.buffer_size = comm.message_bytes;
  t.file_use = FileUse::None;
  t.procs = procs;
  t.groups = groups;
  t.params = {{"benchmark", benchmark}};
  comm.table.title = benchmark;
  t.comm = comm;
  OpTimes op{0, procs / groups, t_min, t_avg, t_max, mbytes};
  Repetition r;
  r.units = 1;
  r.bytes = comm.message_bytes * comm.ops_per_unit * procs;
  r.aggregate_time_s = t_max * 1e-6 * static_cast<double>(comm.ops_per_unit) / comm.time_scale;
  r.bandwidth_MiBps = static_cast<double>(r.bytes) / kMiB / r.aggregate_time_s;
  r.rank_time_s = ranks(r.aggregate_time_s * 0.9, r.aggregate_time_s * 0.95, r.aggregate_time_s);
  r.op = op;
  t.reps = {r};
  summarize_reps(t);
  t.summary.op = op;
  return t;
}

CommSemantics semantics(std::int64_t bytes, std::int64_t ops, double time_scale, double bytes_scale,
                        Report report) {
  CommSemantics c;
  c.message_bytes = bytes;
  c.ops_per_unit = ops;
  c.time_scale = time_scale;
  c.bytes_scale = bytes_scale;
  c.report = report;
  return c;
}

/// c as a single transfer's IMB table shows it (one t column, IMB §6).
CommSemantics single(CommSemantics c) {
  c.table.time = TimeColumns::Single;
  return c;
}

/// c without a #bytes column (IMB's Barrier).
CommSemantics time_only(CommSemantics c) {
  c.table.bytes = BytesColumn::None;
  return c;
}

ModuleResult imb_block() {
  ModuleResult b;
  b.module = "imb_mpi1";
  b.module_name = "IMB-MPI1";
  b.label = "imb_mpi1";
  b.config_location = "site.conf:30";
  b.output = Output::Imb;
  b.reps = 1;
  int i = 0;
  b.tests = {
      comm_test(i++, "PingPong", 2, 1, single(semantics(0, 1000, 0.5, 1, Report::Both)), 0.21, 0.22,
                0.23, 0),
      comm_test(i++, "PingPong", 2, 1, single(semantics(1024, 1000, 0.5, 1, Report::Both)), 0.45,
                0.46, 0.47, 2077.79),
      comm_test(i++, "PingPong", 2, 1, single(semantics(4194304, 10, 0.5, 1, Report::Both)), 1190.5,
                1191.25, 1192, 3355.7),
      comm_test(i++, "PingPong", 4, 2, single(semantics(1024, 1000, 0.5, 1, Report::Both)), 0.48,
                0.51, 0.55, 1775.57),
      comm_test(i++, "Allreduce", 4, 1, semantics(0, 1000, 1, 1, Report::Latency), 0.05, 0.06, 0.08,
                0),
      comm_test(i++, "Allreduce", 4, 1, semantics(1024, 1000, 1, 1, Report::Latency), 2.1, 2.35,
                2.61, 0),
      comm_test(i++, "Barrier", 4, 1, time_only(semantics(0, 1000, 1, 1, Report::Latency)), 1.1,
                1.15, 1.2, 0),
      comm_test(i++, "Sendrecv", 4, 1, semantics(1024, 1000, 1, 2, Report::Both), 0.9, 0.95, 1.01,
                1933.6),
  };
  return b;
}

ModuleResult failed_block() {
  ModuleResult b;
  b.module = "tiled";
  b.module_name = "Tiled";
  b.label = "tiled";
  b.config_location = "site.conf:41";
  b.interface = "posix"; // the console header and the CSV say so
  b.interface_settings = {{"ODirect", "off"}};
  b.error = ErrorRecord{0, "init_module: TileDims needs 2 or 3 values (site.conf:43)", {}};
  return b;
}
} // namespace

RunResult sample_run() {
  RunResult run;
  run.schema_version = 2;
  run.tool_version = "0.2.0";
  run.module_api_version = 2;
  run.date = "2024-05-01T12:00:00Z";
  run.command_line = {"pio-harness", "-c", "site.conf"};
  run.mpi_library = "MPICH Version: 4.0.2";
  run.mpi_standard = "4.0";
  run.processes = 4;
  run.hosts = {
      HostInfo{"node1", {0, 1, 2, 3}, 8LL << 30, 4, "cpu", "Linux 6.1 x86_64", "Debian", {}, {}}};
  run.test_file = "/scratch/pio/testfile";
  run.file_system = "lustre";
  run.config_path = "site.conf";
  run.results_path = "pio-results.json";
  run.modules = {io_block(), imb_block(), failed_block()};
  run.status = "failed";
  run.exit_code = 1;
  return run;
}

void replay(const RunResult &run, harness::Reporter &r) {
  RunResult sofar = run;
  sofar.modules.clear();
  sofar.status = "running";
  sofar.exit_code = 0;
  r.run_started(sofar);
  const int count = static_cast<int>(run.modules.size());
  for (int i = 0; i < count; ++i) {
    const ModuleResult &full = run.modules[static_cast<size_t>(i)];
    ModuleResult block = full;
    block.tests.clear();
    block.figure.reset();
    block.error.reset();
    sofar.modules.push_back(block);
    r.block_started(sofar, sofar.modules.back(), i, count);
    for (const auto &test : full.tests) {
      sofar.modules.back().tests.push_back(test);
      r.test_finished(sofar, sofar.modules.back(), sofar.modules.back().tests.back());
    }
    sofar.modules.back().figure = full.figure;
    sofar.modules.back().error = full.error;
    r.block_finished(sofar, sofar.modules.back());
  }
  sofar.status = run.status;
  sofar.exit_code = run.exit_code;
  r.run_finished(sofar);
}

} // namespace pio::test
