// Contract v2 through the harness: rank groups (one communicator per group, a shared file per
// group), communication semantics turned into IMB's per-operation times, files claimed by a
// module, and a file only for the tests whose FileUse asks for one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {
std::string faults_block(const std::string &extra) {
  return "<ap_module>\nModuleName test_faults\nTests 1\n" + extra + "</ap_module>\n";
}
} // namespace

TEST_CASE("tests run in groups of ranks, each group its own communicator and file", "[groups]") {
  const int n = pio::test::size();
  if (n < 2)
    return; // groups of one rank are the n = 1 case of the other tests
  pio::test::TempDir dir;
  const auto ran =
      pio::test::run_config(dir, "groups", "TestFile " + dir.file("g.dat") + "\n" +
                                               faults_block("GroupSize 1\nUseFile on\n"),
                            /*keep_files=*/true);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::TestResult &t = ran.run.modules.at(0).tests.at(0);
    CHECK(t.groups == n);
    CHECK(t.procs == n);
    CHECK(t.file == dir.file("g.dat.g0"));
    return t.groups == n && !t.error;
  }));
  // Every group wrote its own file: 3 units x 1 rank x "pio-test".
  bool ok = true;
  if (pio::test::rank() == 0)
    for (int g = 0; g < n; ++g) {
      const auto bytes = pio::test::read_bytes(dir.file("g.dat.g" + std::to_string(g)));
      ok = ok && bytes.size() == 24 &&
           std::string(bytes.begin(), bytes.end()) == "pio-testpio-testpio-test";
    }
  REQUIRE(all_ranks(ok));
}

TEST_CASE("a test that needs more ranks than the run has fails clearly", "[groups]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "toomany",
      "TestFile " + dir.file("t.dat") + "\n" +
          faults_block("GroupSize " + std::to_string(n + 1) + "\nUseFile off\n"));
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &t = ran.run.modules.at(0).tests.at(0);
    const std::string want = "needs " + std::to_string(n + 1) + " processes, the run has " +
                             std::to_string(n) + " (fix: run with mpiexec -n " +
                             std::to_string(n + 1);
    CHECK(t.error);
    return t.error && t.error->message.find(want) != std::string::npos;
  }));
}

TEST_CASE("communication semantics give IMB's per-operation times", "[groups]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "comm",
                                         "TestFile " + dir.file("c.dat") + "\n" +
                                             faults_block("UseFile off\nComm on\nModuleReps 2\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::TestResult &t = ran.run.modules.at(0).tests.at(0);
    bool ok = t.reps.size() == 2;
    for (const auto &r : t.reps) {
      REQUIRE(r.op);
      // t per op = own time / units / ops_per_unit * time_scale, over the ranks of the group.
      const double scale = 1e6 / 3 / 4 * 0.5;
      CHECK(r.op->t_max_us == Approx(r.rank_time_s.max * scale));
      CHECK(r.op->t_min_us == Approx(r.rank_time_s.min * scale));
      CHECK(r.op->t_avg_us == Approx(r.rank_time_s.mean * scale));
      // throughput = message_bytes * bytes_scale / t_max, in MiB/s.
      CHECK(r.op->mbytes_per_s == Approx(2.0 * 8 / 1048576.0 / (r.op->t_max_us * 1e-6)));
      CHECK(r.phases.at(0).groups.size() == 1);
      ok = ok && r.op->t_max_us > 0;
    }
    // The summary keeps the best repetition's times.
    REQUIRE(t.summary.op);
    CHECK(t.summary.op->t_max_us == Approx(std::min(t.reps[0].op->t_max_us, t.reps[1].op->t_max_us)));
    CHECK(ran.results["modules"][0]["tests"][0]["comm"]["time_scale"] == 0.5);
    return ok;
  }));
}

TEST_CASE("a file a module claims is refused if it exists, else deleted after the module",
          "[groups]") {
  pio::test::TempDir dir;
  const std::string config =
      "TestFile " + dir.file("t.dat") + "\n" + faults_block("UseFile off\nClaimFile probe\n");
  auto ran = pio::test::run_config(dir, "claim", config);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("probe"))));

  pio::test::write_text(dir.file("probe"), "user data");
  ran = pio::test::run_config(dir, "claim2", config);
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &e = ran.run.modules.at(0).error;
    return e && e->message.find("already exists") != std::string::npos;
  }));
  // The user's file is untouched.
  bool same = true;
  if (pio::test::rank() == 0) {
    const auto bytes = pio::test::read_bytes(dir.file("probe"));
    same = std::string(bytes.begin(), bytes.end()) == "user data";
  }
  REQUIRE(all_ranks(same));
}

TEST_CASE("a test gets a file exactly when its FileUse asks for one", "[groups]") {
  // No module-wide needs_file: each test's TestSpec::file alone decides (FileUse::None: none).
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "nofile",
      "TestFile " + dir.file("t.dat") +
          "\n<ap_module>\nModuleName test_nofile\nTests 1\nUseFile off\n</ap_module>\n" +
          "<ap_module>\nModuleName test_nofile\nTestFile " + dir.file("u.dat") +
          "\nTests 1\nUseFile on\n</ap_module>\n",
      true);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("t.dat"))));
  REQUIRE(all_ranks(pio::test::exists(dir.file("u.dat"))));
  REQUIRE(on_root([&] {
    const auto &none = ran.run.modules.at(0).tests.at(0);
    const auto &shared = ran.run.modules.at(1).tests.at(0);
    CHECK(none.file_use == pio::FileUse::None);
    CHECK(none.file.empty());
    CHECK(!none.error);
    CHECK(shared.file_use == pio::FileUse::Shared);
    CHECK(shared.file == dir.file("u.dat"));
    return !none.error && !shared.error && none.file.empty();
  }));
}

// 4 ranks: groups of two ranks, twice, exist only at 4 ranks.
TEST_CASE("the test context's all communicator is every rank of every group of the test",
          "[groups][4ranks]") {
  const int n = pio::test::size();
  struct Case {
    int group_size, groups;
  };
  // Groups of one rank on all but the last rank (it idles), groups of two, and one group of all.
  std::vector<Case> cases = {{1, std::max(1, n - 1)}, {0, 1}};
  if (n >= 4)
    cases.push_back({2, 2});
  for (const auto &c : cases) {
    const int procs = c.group_size > 0 ? c.group_size * c.groups : n;
    INFO("GroupSize " << c.group_size << ", GroupCount " << c.groups);
    pio::test::TempDir dir;
    const auto ran = pio::test::run_config(
        dir, "all",
        "TestFile " + dir.file("t.dat") + "\n" +
            faults_block("GroupSize " + std::to_string(c.group_size) + "\nGroupCount " +
                         std::to_string(c.groups) + "\nCheckAll on\nUseFile off\n"));
    INFO(ran.err);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      const pio::TestResult &t = ran.run.modules.at(0).tests.at(0);
      CHECK(t.procs == procs);
      CHECK(t.groups == (c.group_size > 0 ? c.groups : 1));
      CHECK(!t.error);
      return t.procs == procs && !t.error;
    }));
  }
}
