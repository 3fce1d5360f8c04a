// Each kernel's declared semantics (IMB 3.2 User Guide §3.3) turned into IMB's figures by the
// harness, for one synthetic timing computed by hand; and the table's unit line (§6).
#include <catch2/catch.hpp>

#include <sstream>

#include "imb_module.hpp"
#include "mpi1_kernels.hpp"
#include "report/imb_reporter.hpp"
#include "run/measure.hpp"

using namespace imb;

namespace {

/// The module's settings with the directives' defaults and `given` on top.
pio::Settings settings(std::map<std::string, std::vector<std::string>> given) {
  for (const auto &d : directives())
    if (!d.default_value.empty() && !given.count(d.name))
      given[d.name] = {d.default_value};
  return pio::Settings(given);
}

/// The tests a kernel declares on `world` ranks (init_module on one rank, world faked).
std::vector<pio::TestSpec> declare(std::unique_ptr<Kernel> (*make)(), int world,
                                   std::map<std::string, std::vector<std::string>> given) {
  pio::ModuleContext ctx;
  ctx.comm = MPI_COMM_SELF;
  ctx.size = world;
  ctx.settings = settings(std::move(given));
  ImbModule m(make());
  // A faked size on MPI_COMM_SELF: only the declaration is used here.
  auto tests = m.init_module(ctx);
  m.cleanup_module(ctx);
  return tests;
}

} // namespace

TEST_CASE("kernels declare IMB's classes, multiplicities and time scales (§3.3)", "[imb]") {
  struct Want {
    std::unique_ptr<Kernel> (*make)();
    const char *name;
    double bytes_scale, time_scale;
    pio::Report report;
    const char *datatype;
  };
  const std::vector<Want> want = {
      {make_pingpong, "PingPong", 1, 0.5, pio::Report::Both, "MPI_BYTE"},
      {make_pingping, "PingPing", 1, 1, pio::Report::Both, "MPI_BYTE"},
      {make_sendrecv, "Sendrecv", 2, 1, pio::Report::Both, "MPI_BYTE"},
      {make_exchange, "Exchange", 4, 1, pio::Report::Both, "MPI_BYTE"},
      {make_bcast, "Bcast", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_allgather, "Allgather", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_allgatherv, "Allgatherv", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_scatter, "Scatter", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_scatterv, "Scatterv", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_gather, "Gather", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_gatherv, "Gatherv", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_alltoall, "Alltoall", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_alltoallv, "Alltoallv", 1, 1, pio::Report::Latency, "MPI_BYTE"},
      {make_reduce, "Reduce", 1, 1, pio::Report::Latency, "MPI_FLOAT"},
      {make_reduce_scatter, "Reduce_scatter", 1, 1, pio::Report::Latency, "MPI_FLOAT"},
      {make_allreduce, "Allreduce", 1, 1, pio::Report::Latency, "MPI_FLOAT"},
      {make_barrier, "Barrier", 1, 1, pio::Report::Latency, "MPI_BYTE"},
  };
  for (const auto &w : want) {
    INFO(w.name);
    const auto tests = declare(w.make, 2, {{"MsgLengths", {"0", "64K", "4M"}}});
    REQUIRE(!tests.empty());
    const pio::TestSpec &t = tests.back();
    CHECK(t.params.at("benchmark") == w.name);
    // What IMB's table shows is declared, typed: the title, one t column for the single
    // transfers (§6), no #bytes for Barrier, IMB 3.2's MiB stated.
    CHECK(t.comm->table.title == w.name);
    const bool single = std::string(w.name) == "PingPong" || std::string(w.name) == "PingPing";
    CHECK(t.comm->table.time == (single ? pio::TimeColumns::Single : pio::TimeColumns::Range));
    CHECK(t.comm->table.bytes ==
          (std::string(w.name) == "Barrier" ? pio::BytesColumn::None : pio::BytesColumn::Shown));
    CHECK(t.comm->table.unit == pio::MbytesUnit::MiB);
    CHECK(t.comm->table.rows == pio::GroupRows::Auto);
    CHECK(t.comm->table.mode == pio::TableMode::None);
    CHECK(t.comm->bytes_scale == w.bytes_scale);
    CHECK(t.comm->time_scale == w.time_scale);
    CHECK(t.comm->report == w.report);
    CHECK(t.file == pio::FileUse::None);
    if (std::string(w.name) != "Barrier") {
      CHECK(t.params.at("datatype") == w.datatype);
      REQUIRE(tests.size() == 3);
      CHECK(t.comm->message_bytes == 4194304);
      CHECK(t.comm->ops_per_unit == 10); // OVERALL_VOL 40M / 4M
      CHECK(tests[1].comm->ops_per_unit == 640);
      CHECK(tests[0].comm->ops_per_unit == 1000);
    } else {
      CHECK(tests.size() == 1);
      CHECK(t.comm->ops_per_unit == 1000);
    }
  }
}

TEST_CASE("one synthetic timing: t = own / n * time_scale, Mbytes/sec = nmsg X / t_max", "[imb]") {
  // Two ranks spent 2 ms and 3 ms on one sample of 640 operations of X = 64 KiB.
  const std::vector<double> own = {0.002, 0.003};
  const std::vector<int> group = {0, 0};
  const double mib = 1048576.0;
  SECTION("PingPong: half the round trip, one message") {
    const auto t = declare(make_pingpong, 2, {{"MsgLengths", {"64K"}}}).at(0);
    const auto op = pio::harness::op_times(own, group, 1, 1, *t.comm).at(0);
    CHECK(op.t_min_us == Approx(0.002 / 640 / 2 * 1e6)); // 1.5625 us
    CHECK(op.t_max_us == Approx(0.003 / 640 / 2 * 1e6)); // 2.34375 us
    CHECK(op.t_avg_us == Approx(0.0025 / 640 / 2 * 1e6));
    CHECK(op.mbytes_per_s == Approx(65536 / mib / (2.34375e-6))); // 26666.67 MiB/s
  }
  SECTION("Sendrecv: turnover 2X") {
    const auto t = declare(make_sendrecv, 2, {{"MsgLengths", {"64K"}}}).at(0);
    const auto op = pio::harness::op_times(own, group, 1, 1, *t.comm).at(0);
    CHECK(op.t_max_us == Approx(0.003 / 640 * 1e6)); // 4.6875 us
    CHECK(op.mbytes_per_s == Approx(2 * 65536 / mib / 4.6875e-6));
  }
  SECTION("Exchange: turnover 4X") {
    const auto t = declare(make_exchange, 2, {{"MsgLengths", {"64K"}}}).at(0);
    const auto op = pio::harness::op_times(own, group, 1, 1, *t.comm).at(0);
    CHECK(op.mbytes_per_s == Approx(4 * 65536 / mib / 4.6875e-6)); // 53333.3 MiB/s
  }
  SECTION("Allreduce: bare time") {
    const auto t = declare(make_allreduce, 2, {{"MsgLengths", {"64K"}}}).at(0);
    const auto op = pio::harness::op_times(own, group, 1, 1, *t.comm).at(0);
    CHECK(op.t_avg_us == Approx(0.0025 / 640 * 1e6));
    CHECK(op.mbytes_per_s == 0);
  }
}

TEST_CASE("npmin, multi and map become the tests' rank groups", "[imb]") {
  auto tests = declare(make_sendrecv, 4, {{"MsgLengths", {"1K"}}, {"NpMin", {"1"}}});
  REQUIRE(tests.size() == 3);
  CHECK(tests[0].groups.color == std::vector<int>{0, -1, -1, -1});
  CHECK(tests[1].groups.color == std::vector<int>{0, 0, -1, -1});
  CHECK(tests[2].groups.color == std::vector<int>{0, 0, 0, 0});
  tests = declare(make_pingpong, 4, {{"MsgLengths", {"1K"}}, {"Multi", {"0"}}});
  REQUIRE(tests.size() == 1);
  CHECK(tests[0].groups.color == std::vector<int>{0, 0, 1, 1});
  CHECK(tests[0].params.at("groups") == "2");
  // -multi 0: one row, the spread over the groups; their ranks listed under the title.
  CHECK(tests[0].comm->table.rows == pio::GroupRows::Worst);
  CHECK(tests[0].comm->table.group_ranks == std::vector<std::vector<int>>{{0, 1}, {2, 3}});
  tests = declare(make_pingpong, 4, {{"MsgLengths", {"1K"}}, {"Multi", {"1"}}, {"Map", {"2x2"}}});
  CHECK(tests[0].groups.color == std::vector<int>{0, 1, 0, 1});
  // -multi 1: every group's row; -map 2x2 lists the ranks in map order (§5.1.2.10).
  CHECK(tests[0].comm->table.rows == pio::GroupRows::Each);
  CHECK(tests[0].comm->table.group_ranks == std::vector<std::vector<int>>{{0, 2}, {1, 3}});
  CHECK_THROWS(declare(make_pingpong, 1, {}));
}

TEST_CASE("the IMB table states its Mbytes/sec unit and offers IMB 2019's 10^6 B/s (§6)", "[imb]") {
  pio::RunResult run;
  run.processes = 2;
  pio::ModuleResult block;
  block.module = "imb_pingpong";
  block.output = pio::Output::Imb;
  pio::TestResult t;
  t.procs = 2;
  pio::CommSemantics comm;
  comm.ops_per_unit = 640;
  comm.time_scale = 0.5;
  comm.message_bytes = 65536;
  comm.table.title = "PingPong";
  comm.table.time = pio::TimeColumns::Single;
  comm.table.unit = pio::MbytesUnit::MB;
  t.comm = comm;
  t.params = {{"benchmark", "PingPong"}, {"mbytes_unit", "MB"}};
  pio::OpTimes op;
  op.t_min_us = op.t_avg_us = op.t_max_us = 8.0;
  op.mbytes_per_s = 65536 / 1048576.0 / 8e-6; // 7812.5 MiB/s
  t.summary.op = op;
  std::ostringstream out;
  pio::harness::ImbReporter imb(out);
  imb.block_started(run, block, 0, 1);
  imb.test_finished(run, block, t);
  CHECK(out.str() == "\n#---------------------------------------------------\n"
                     "# Benchmarking PingPong\n"
                     "# #processes = 2\n"
                     "# Mbytes/sec = 10^6 bytes/sec\n"
                     "#---------------------------------------------------\n"
                     "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
                     "        65536          640         8.00      8192.00\n");
}
