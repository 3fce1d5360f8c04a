// Rounds (docs/reference/configuration.md): the blocks run N times, each round every block once in
// a shuffled order, recorded per block record; blocks sharing files are refused at the Rounds line.
// BytesPerRank: each test of a buffer-size sweep moves the same bytes per rank.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "mpi_test.hpp"

using Catch::Matchers::Contains;
using pio::test::on_root;

TEST_CASE("Rounds runs every block once per round in shuffled orders", "[rounds]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "r",
      "TestFile " + dir.file("r.dat") +
          "\nRounds 6\n<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 1\n"
          "ModuleReps 2\nSweep Collective on off\nSweep FileView on off\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(ran.results.at("rounds") == 6);
    const auto &mods = ran.results.at("modules");
    REQUIRE(mods.size() == 24);
    std::set<std::vector<int>> orders;
    for (int r = 0; r < 6; ++r) {
      std::vector<int> order;
      std::set<std::string> labels;
      for (int k = 0; k < 4; ++k) {
        const auto &m = mods[static_cast<size_t>(4 * r + k)];
        CHECK(m.at("round") == r + 1);
        order.push_back(m.at("block_index").get<int>());
        labels.insert(m.at("label").get<std::string>());
        CHECK(m.at("tests").at(0).at("reps").size() == 2);
      }
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      CHECK(sorted == std::vector<int>{0, 1, 2, 3}); // every block once per round
      CHECK(labels.size() == 4);
      orders.insert(order);
      CHECK_THAT(ran.out, Contains("round " + std::to_string(r + 1) + "/6"));
    }
    // Six rounds of 4! orders: all alike would be a shuffle that does not shuffle (p < 1e-6).
    CHECK(orders.size() > 1);
    CHECK(mods[0].at("label") != nullptr);
    return true;
  }));
}

TEST_CASE("Rounds refuses blocks that share files, at the Rounds line", "[rounds]") {
  pio::test::TempDir dir;
  pio::harness::RunOptions opt;
  opt.check_only = true;
  const auto ran = pio::test::run_config_with(
      dir, "r",
      "TestFile " + dir.file("r.dat") +
          "\nRounds 2\n<ap_module>\nModuleName simple_strided\nLabel w\nBufferSizes 4K\n"
          "</ap_module>\n<ap_module>\nModuleName \"Simple Strided (read)\"\nFilesFrom w\n"
          "BufferSizes 4K\n</ap_module>\n",
      opt);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err, Contains(dir.file("r.conf") + ":2: Rounds 2 would shuffle the block "
                                                      "simple_strided(read)"));
    CHECK_THAT(ran.err, Contains("FilesFrom at " + dir.file("r.conf") + ":10"));
    return true;
  }));
}

TEST_CASE("BytesPerRank gives every buffer size the same bytes per rank", "[rounds]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "b",
      "TestFile " + dir.file("b.dat") +
          "\n<ap_module>\nModuleName nested_strided\nBufferSizes 4K 16K 64K 48K\n"
          "BytesPerRank 256K\nVerify on\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &tests = ran.results.at("modules").at(0).at("tests");
    REQUIRE(tests.size() == 4);
    const long units[] = {64, 16, 4, 6}; // 256K / 48K rounded up
    for (size_t i = 0; i < 4; ++i) {
      const auto &t = tests[i];
      CHECK(t.at("params").at("work_units") == std::to_string(units[i]));
      CHECK(t.at("params").at("bytes_per_rank") == "262144");
      CHECK(t.at("reps").at(0).at("units") == units[i]);
      CHECK(t.at("reps").at(0).at("bytes") == units[i] * t.at("buffer_size").get<long>() * n);
    }
    return true;
  }));
  pio::harness::RunOptions opt;
  opt.check_only = true;
  const auto random = pio::test::run_config_with(
      dir, "rs",
      "TestFile " + dir.file("rs.dat") +
          "\n<ap_module>\nModuleName random_strided\nBytesPerRank 1M\n</ap_module>\n",
      opt);
  REQUIRE(pio::test::all_ranks(random.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(random.err, Contains("BytesPerRank cannot decide that number"));
    return true;
  }));
}
