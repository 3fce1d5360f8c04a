// Process-count sweeps through a real run (b_eff_io's partitions, IMB's -npmin): a block with
// Processes runs init_module .. cleanup_module on the first k ranks only, the module sees a
// communicator of k ranks, the other ranks idle without hanging, counts above the run's size are
// skipped with a note, and a line the run cannot satisfy is a config error with file:line.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using Catch::Matchers::Contains;
using pio::test::on_root;

namespace {
/// The counts of {1, 2, 4} a run of n ranks has.
std::vector<int> counts_up_to(int n) {
  std::vector<int> out;
  for (int k : {1, 2, 4})
    if (k <= n)
      out.push_back(k);
  return out;
}
} // namespace

// 4 ranks: a block on the first 2 of 4 ranks (a communicator of 2 with 2 idle ranks) exists only at
// 4.
TEST_CASE("Sweep Processes runs one block per count on the first k ranks",
          "[sweep][processes][4ranks]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  // The null block sleeps on its last rank: the idle ranks wait that long at the block's end.
  const auto ran = pio::test::run_config(
      dir, "procs",
      "CsvFile " + dir.file("procs.csv") +
          "\n<ap_module>\nModuleName null\nWorkUnits 3\nDelayMs 20\n"
          "Sweep Processes 1 2 4\nLabel sweep\n</ap_module>\n"
          "<ap_module>\nModuleName null\nWorkUnits 2\nProcesses 1\nLabel single\n</ap_module>\n"
          "<ap_module>\nModuleName null\nWorkUnits 2\nLabel everyone\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  const auto counts = counts_up_to(n);
  REQUIRE(on_root([&] {
    const auto &mods = ran.results.at("modules");
    REQUIRE(mods.size() == counts.size() + 2);
    for (size_t i = 0; i < counts.size(); ++i) {
      const auto &m = mods[i];
      const std::string k = std::to_string(counts[i]);
      CHECK(m.at("label") == "sweep Processes=" + k);
      CHECK(m.at("settings").at("Processes") == nlohmann::json::array({k}));
      REQUIRE(m.at("tests").size() == 1);
      CHECK(m["tests"][0].at("procs") == counts[i]);
      CHECK(m["tests"][0].at("reps").at(0).at("units") == 3);
      CHECK_THAT(ran.out, Contains("] null  \"sweep Processes=" + k + "\""));
    }
    const auto &single = mods[counts.size()];
    CHECK(single.at("label") == "single");
    CHECK(single.at("settings").at("Processes") == nlohmann::json::array({"1"}));
    CHECK(single["tests"][0].at("procs") == 1);
    const auto &everyone = mods[counts.size() + 1];
    CHECK(everyone.at("label") == "everyone");
    CHECK_FALSE(everyone.at("settings").contains("Processes"));
    CHECK(everyone["tests"][0].at("procs") == n);
    CHECK(ran.results.at("processes") == n);
    // The CSV has the count as a column of its own, next to procs.
    const auto csv = pio::test::read_bytes(dir.file("procs.csv"));
    const std::string text(csv.begin(), csv.end());
    const std::string header = text.substr(0, text.find('\n'));
    CHECK_THAT(header, Contains(",setting:Processes,"));
    CHECK_THAT(header, Contains(",setting:WorkUnits,"));
    for (int k : counts)
      CHECK_THAT(text, Contains("sweep Processes=" + std::to_string(k) + ","));
    // Counts the run does not have are skipped, with a note naming the line.
    if (n < 4)
      CHECK_THAT(ran.err, Contains("procs.conf:6: Processes " + std::string(n == 1 ? "2 4" : "4") +
                                   " skipped: the run has " + std::to_string(n) + " process"));
    else
      CHECK(ran.err.find("skipped") == std::string::npos);
    return true;
  }));
}

// 4 ranks: 1..all is 1, 2 and 4: a block on 2 of 4 ranks exists only at 4.
TEST_CASE("a module in a Processes block sees the block's communicator",
          "[sweep][processes][4ranks]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  // DelayRank 1 is a rank of a block of 2 and not of a block of 1: init_module checks it
  // against ModuleContext::size. (A derived label leaves DelayRank out, so at -n 1 the two
  // blocks would both be "null Processes=1": the first has a Label.)
  const auto ok = pio::test::run_config(
      dir, "comm_ok",
      "<ap_module>\nModuleName null\nWorkUnits 1\nDelayRank 1\nProcesses all\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ok.exit_code == (n >= 2 ? 0 : 1)));
  const auto one = pio::test::run_config(
      dir, "comm_one",
      "<ap_module>\nModuleName null\nLabel delayed\nWorkUnits 1\nDelayRank 1\nProcesses 1\n"
      "</ap_module>\n"
      "<ap_module>\nModuleName null\nWorkUnits 1\nProcesses 1..all\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(one.exit_code == 1));
  const auto counts = counts_up_to(n);
  REQUIRE(on_root([&] {
    const auto &mods = one.results.at("modules");
    REQUIRE(mods.size() == 1 + counts.size());
    CHECK_THAT(mods[0].at("error").at("message").get<std::string>(),
               Contains("DelayRank 1 is not a rank of this run (0..0)"));
    // A failed block does not stop the next ones, which run on 1, 2, 4 ... all ranks.
    for (size_t i = 0; i < counts.size(); ++i) {
      CHECK(mods[1 + i].at("error").is_null());
      CHECK(mods[1 + i]["tests"][0].at("procs") == counts[i]);
    }
    return true;
  }));
}

// 4 ranks: the 2-rank file written by 2 of 4 ranks exists only at 4.
TEST_CASE("a pattern on the first k ranks writes the k-rank file, byte for byte",
          "[sweep][processes][4ranks]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto counts = counts_up_to(n);
  std::string blocks;
  for (int k : counts)
    blocks += "<ap_module>\nModuleName \"Simple Strided (write)\"\nTestFile " +
              dir.file("w" + std::to_string(k)) + "\nBufferSizes 4K\nWorkUnits 3\nProcesses " +
              std::to_string(k) + "\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "bytes", "Verify on\nKeepFiles on\n" + blocks, true);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mods = ran.results.at("modules");
    REQUIRE(mods.size() == counts.size());
    for (size_t i = 0; i < counts.size(); ++i) {
      const int k = counts[i];
      // A derived label shows the block's own TestFile and Processes, whatever other blocks
      // there are (at one rank there is one block, labelled as in a larger run).
      CHECK(mods[i].at("label") ==
            "simple_strided(write) TestFile=" + dir.file("w" + std::to_string(k)) +
                " Processes=" + std::to_string(k));
      CHECK(mods[i]["tests"][0].at("reps").at(0).at("bytes") == 3 * 4096 * k);
      // Strips of 4K in rank order, k ranks, 3 units: the file of a k-rank run.
      const pio::test::Image img{3 * 4096 * k,
                                 [k](std::int64_t o) { return static_cast<int>((o / 4096) % k); }};
      CHECK(pio::test::compare_file(dir.file("w" + std::to_string(k)), img, "write") == "");
    }
    return true;
  }));
}

TEST_CASE("Processes the run cannot satisfy is a config error with file:line",
          "[sweep][processes]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "toobig",
      "TestFile " + dir.file("toobig.dat") +
          "\n<ap_module>\nModuleName null\nProcesses 1\n</ap_module>\n"
          "<ap_module>\nModuleName simple_strided\nProcesses 8 16\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 2));
  REQUIRE(pio::test::all_ranks(!pio::test::exists(dir.file("toobig.dat"))));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err,
               Contains("toobig.conf:8: Processes: the run has " + std::to_string(n) + " process"));
    CHECK_THAT(ran.err, Contains("fewer than every count asked for (8 16)"));
    CHECK_THAT(ran.err, Contains("mpiexec -n 8 or more"));
    return true;
  }));
}

TEST_CASE("ranks idle in a Processes block outlive a short StepTimeout", "[sweep][processes]") {
  if (pio::test::size() == 1)
    return; // no rank idles
  pio::test::TempDir dir;
  // Rank 0 works 4.5 s in 0.3 s units; the others wait that long, longer than a waiting rank's
  // 1 s StepTimeout allows (1.5 x 1 + 2 s) without the heartbeats of the wait.
  const auto ran = pio::test::run_config(dir, "idle",
                                         "StepTimeout 1\n<ap_module>\nModuleName null\n"
                                         "WorkUnits 15\nDelayMs 300\nProcesses 1\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(ran.results.at("modules").at(0).at("tests").at(0).at("procs") == 1);
    return true;
  }));
}
