// The IMB-MPI1 family through the harness at 1, 2 and 4 ranks: every kernel verified (Verify on
// checks the buffers after each sample), IMB's tables, the process counts of -npmin and the
// groups of -multi.
#include <catch2/catch.hpp>

#include <cstdio>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

const char *const kKernels[] = {
    "PingPong",   "PingPing", "Sendrecv",       "Exchange",  "Bcast",   "Allgather",
    "Allgatherv", "Scatter",  "Scatterv",       "Gather",    "Gatherv", "Alltoall",
    "Alltoallv",  "Reduce",   "Reduce_scatter", "Allreduce", "Barrier"};

std::string block(const std::string &name, const std::string &extra) {
  const std::string lengths =
      extra.find("MsgLengths") == std::string::npos ? "MsgLengths 0 4 4K\n" : "";
  return "<ap_module>\nModuleName " + name + "\n" + lengths + "MsgsPerSample 20\n" + extra +
         "</ap_module>\n";
}

} // namespace

TEST_CASE("all 17 kernels run verified through the harness", "[imb]") {
  pio::test::TempDir dir;
  const bool two = pio::test::size() >= 2;
  std::string conf = "TestFile " + dir.file("unused") + "\nVerify on\n";
  // Every kernel on all ranks only (NpMin = size), two lengths: 4 ranks share 2 cores here.
  // No timing probe here (TimeLimit 0; the OffCache test covers it), fewer operations at 4.
  const std::int64_t n = pio::test::size() >= 4 ? 5 : 20;
  const std::string np = "NpMin " + std::to_string(pio::test::size()) +
                         "\nMsgLengths 4 4K\nTimeLimit 0\nMsgsPerSample " + std::to_string(n) +
                         "\n";
  for (const char *k : kKernels)
    if (two || (std::string(k) != "PingPong" && std::string(k) != "PingPing"))
      conf += block(k, np);
  const auto ran = pio::test::run_config(dir, "all", conf);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    bool ok = true;
    for (const auto &m : ran.run.modules) {
      INFO(m.module);
      CHECK(!m.error);
      CHECK(!m.tests.empty());
      for (const auto &t : m.tests) {
        INFO(t.label);
        CHECK(!t.error);
        REQUIRE(t.reps.size() == 1);
        REQUIRE(t.reps[0].op);
        // n_sample = MSGSPERSAMPLE (OVERALL_VOL 40M / 4K is larger); a sample is one unit.
        CHECK(t.comm->ops_per_unit == n);
        CHECK(t.reps[0].units == 1);
        ok = ok && !t.error && t.reps[0].op->t_max_us >= t.reps[0].op->t_min_us;
      }
    }
    CHECK(ran.out.find("# Benchmarking Reduce_scatter") != std::string::npos);
    CHECK(ran.out.find(" #repetitions  t_min[usec]") != std::string::npos); // Barrier
    return ok && ran.run.modules.size() == (two ? 17u : 15u);
  }));
}

TEST_CASE("PingPong needs two processes", "[imb]") {
  if (pio::test::size() >= 2)
    return;
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "pp", "TestFile " + dir.file("unused") + "\n" + block("imb_pingpong", ""));
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &m = ran.run.modules.at(0);
    REQUIRE(m.error);
    CHECK(m.error->message.find("needs 2 processes") != std::string::npos);
    return true;
  }));
}

// 4 ranks: the series 1, 2, 4 with idle ranks and Multi's two pairs at once exist only at 4 ranks.
TEST_CASE("NpMin 1 runs on 1, 2, 4, ... ranks; Multi runs world / np groups", "[imb][4ranks]") {
  pio::test::TempDir dir;
  const int p = pio::test::size();
  std::string conf =
      "TestFile " + dir.file("unused") + "\nVerify on\n" + block("imb_sendrecv", "NpMin 1\n");
  if (p >= 2)
    conf += block("imb_pingpong", "Multi 0\n");
  const auto ran = pio::test::run_config(dir, "groups", conf);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &sr = ran.run.modules.at(0).tests;
    std::vector<int> procs;
    for (const auto &t : sr)
      if (t.buffer_size == 4096)
        procs.push_back(t.procs);
    const std::vector<int> want = p == 1   ? std::vector<int>{1}
                                  : p == 2 ? std::vector<int>{1, 2}
                                           : std::vector<int>{1, 2, 4};
    CHECK(procs == want);
    if (p >= 2) {
      const auto &pp = ran.run.modules.at(1).tests.at(0);
      CHECK(pp.groups == p / 2);
      CHECK(pp.procs == 2 * (p / 2));
      CHECK(pp.reps.at(0).phases.at(0).groups.size() == static_cast<size_t>(p / 2));
      if (p == 4)
        CHECK(ran.out.find("# Benchmarking Multi-PingPong") != std::string::npos);
    }
    return procs == want;
  }));
}

TEST_CASE("OffCache, the run-time limit and page-aligned buffers keep the data right", "[imb]") {
  pio::test::TempDir dir;
  // TimeLimit 1e-9 s: n_sample = 1 + secs / t_op = 1 for every length.
  const auto ran = pio::test::run_config(
      dir, "oc",
      "TestFile " + dir.file("unused") + "\nVerify on\n" +
          block("imb_allgather", "Label offcache\nOffCache 0.0625\nCacheLineSize 128\n") +
          block("imb_allgather", "Label timelimit\nTimeLimit 0.000000001\n") +
          block("imb_allgather", "Label page\nBufferAlignment page\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &ag = ran.run.modules.at(0).tests.at(2);
    CHECK(ag.params.at("off_cache") == "65536,128");
    CHECK(ag.comm->ops_per_unit == 20);
    // 4 KiB moved takes well over the 1e-8 s below which IMB keeps n_sample.
    const auto &big = ran.run.modules.at(1).tests.at(2);
    CHECK(big.comm->ops_per_unit == 1);
    CHECK(big.reps.at(0).op->t_max_us > 0);
    // BufferAlignment page: verified like the others, and said in the parameters.
    const auto &page = ran.run.modules.at(2).tests.at(2);
    CHECK(!page.error);
    CHECK(page.params.at("buffer_alignment") == "page");
    CHECK(ran.run.modules.at(0).tests.at(2).params.count("buffer_alignment") == 0);
    return big.comm->ops_per_unit == 1 && !page.error;
  }));
}

TEST_CASE("Methodology imb2019: one collective operation per unit (-sync 1), root 0, "
          "Reduce_scatter L per rank, verified; the table says which methodology ran",
          "[imb]") {
  pio::test::TempDir dir;
  const std::int64_t n = 20; // block()'s MsgsPerSample
  const std::string lines =
      "NpMin " + std::to_string(pio::test::size()) + "\nMsgLengths 1K\nTimeLimit 0\n";
  const auto ran =
      pio::test::run_config(dir, "imb2019",
                            "TestFile " + dir.file("unused") + "\nVerify on\n" +
                                block("Reduce_scatter", lines + "Methodology imb2019\n") +
                                block("Bcast", lines + "Methodology imb2019\n") +
                                block("Reduce_scatter", lines + "Label guide\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.size() == 3);
    for (size_t b = 0; b < 3; ++b) {
      INFO("block " << b);
      const auto &t = ran.run.modules[b].tests.at(0);
      CHECK(!t.error);
      REQUIRE(t.reps.size() == 1);
      const bool sync = b < 2;
      // -sync 1: n units of one operation; the guide: one unit of n operations.
      CHECK(t.comm->ops_per_unit == (sync ? 1 : n));
      CHECK(t.reps[0].units == (sync ? n : 1));
      CHECK(t.params.at("sync") == (sync ? "1" : "0"));
      CHECK(t.params.at("methodology") == (sync ? "imb2019" : "imb3.2"));
      CHECK(t.comm->table.methodology ==
            (sync ? "imb2019 (root 0, -sync 1, Reduce_scatter L per rank, 10^6 B/s)"
                  : "imb3.2 (root i % np, -sync 0, Reduce_scatter splits L, 2^20 B/s)"));
    }
    CHECK(ran.run.modules[1].tests.at(0).params.at("root_shift") == "off");
    CHECK(ran.out.find("# Methodology: imb2019 (root 0, -sync 1, Reduce_scatter L per rank, "
                       "10^6 B/s)\n") != std::string::npos);
    CHECK(ran.out.find("# Methodology: imb3.2 (root i % np, -sync 0, Reduce_scatter splits L, "
                       "2^20 B/s)\n") != std::string::npos);
    // #repetitions counts operations, not units: n either way.
    char row[32];
    std::snprintf(row, sizeof row, "%13d%13d ", 1024, static_cast<int>(n));
    CHECK(ran.out.find(row) != std::string::npos);
    return ran.run.modules.size() == 3;
  }));
}
