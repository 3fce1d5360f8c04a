// The results document (docs/reference/results.md): provenance, hints requested and in effect,
// per-rep times and bandwidths, per-rank statistics, bytes, open/close times; the file on disk
// matches.
#include <catch2/catch.hpp>

#include <fstream>

#include "mpi_test.hpp"
#include "pio/version.hpp"

using pio::test::on_root;

TEST_CASE("the results document records what docs/reference/results.md asks for", "[results]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "res",
      "TestFile " + dir.file("res.dat") +
          "\nReportOpenTime on\nReportCloseTime on\nShowAverages on\nHint cb_buffer_size 1048576\n"
          "<ap_module>\nModuleName simple_strided\nModuleReps 3\nBufferSizes 2K 4K\nWorkUnits 2\n"
          "Hint romio_cb_write enable\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &d = ran.results;
    std::ifstream f(dir.file("res.json"));
    const auto on_disk = nlohmann::json::parse(f);
    CHECK(on_disk == d);
    CHECK(d.at("schema_version") == pio::kResultsSchemaVersion);
    CHECK(d.at("tool") == "pio-bench");
    CHECK(!d.at("date").get<std::string>().empty());
    CHECK(d.at("mpi_library").get<std::string>().find("MPICH") != std::string::npos);
    CHECK(d.at("processes") == n);
    CHECK(d.at("hosts").at(0).at("ranks") == n);
    CHECK(!d.at("file_system").get<std::string>().empty());
    CHECK(d.at("config_text").get<std::string>().find("cb_buffer_size") != std::string::npos);
    CHECK(d.at("status") == "complete");
    const auto &m = d.at("modules").at(0);
    CHECK(m.at("module") == "simple_strided");
    CHECK(m.at("family") == "patterns");
    CHECK(m.at("tests").size() == 2);
    bool ok = m.at("tests").size() == 2;
    for (int i = 0; i < 2; ++i) {
      const auto &t = m["tests"][i];
      const std::int64_t buffer = i == 0 ? 2048 : 4096;
      CHECK(t.at("buffer_size") == buffer);
      CHECK(t.at("hints_requested").at("cb_buffer_size") == "1048576");
      CHECK(t.at("hints_requested").at("romio_cb_write") == "enable");
      // ROMIO reports the hints in effect; cb_buffer_size is one it knows.
      CHECK(t.at("hints_in_effect").at("cb_buffer_size") == "1048576");
      CHECK(t.at("reps").size() == 3);
      for (const auto &r : t["reps"]) {
        CHECK(r.at("bytes") == 2 * buffer * n);
        CHECK(r.at("units") == 2);
        CHECK(r.at("aggregate_time_s").get<double>() > 0);
        CHECK(r.at("bandwidth_MiBps").get<double>() ==
              Approx(2.0 * buffer * n / 1048576.0 / r["aggregate_time_s"].get<double>()));
        CHECK(r.at("rank_time_s").at("min").get<double>() <=
              r["rank_time_s"].at("max").get<double>());
        CHECK(r.at("open_time_s").get<double>() > 0);
        CHECK(r.at("close_time_s").get<double>() > 0);
        ok = ok && r["bytes"] == 2 * buffer * n;
      }
      CHECK(t.at("summary").at("bandwidth_MiBps").at("count") == 3);
    }
    // The table shows the spread over repetitions (ShowAverages) and the open/close columns.
    CHECK(ran.out.find("min..max MiB/s") != std::string::npos);
    CHECK(ran.out.find("open s") != std::string::npos);
    return ok;
  }));
}

TEST_CASE("each block records its module's family, as the module declares it", "[results]") {
  // The tools show a block by its family (docs/reference/results.md, `family`); the family comes
  // from the module's ModuleInfo, never from its name.
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "families",
                                         "TestFile " + dir.file("fam.dat") +
                                             "\n<ap_module>\nModuleName null\n</ap_module>\n"
                                             "<ap_module>\nModuleName metadata\nTestFile " +
                                             dir.file("md") +
                                             "\nItems 3\nPhases create\n</ap_module>\n"
                                             "<ap_module>\nModuleName imb_barrier\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.results.at("modules");
    REQUIRE(m.size() == 3);
    CHECK(m[0].at("family") == "patterns");
    CHECK(m[1].at("family") == "metadata");
    CHECK(m[2].at("family") == "imb");
    return m[0]["family"] == "patterns" && m[1]["family"] == "metadata" && m[2]["family"] == "imb";
  }));
}

TEST_CASE("-o csv=FILE writes one row per repetition with every parameter a column", "[results]") {
  pio::test::TempDir dir;
  pio::harness::RunOptions opt;
  opt.csv_path = dir.file("res.csv");
  const auto ran = pio::test::run_config_with(
      dir, "csv",
      "TestFile " + dir.file("res.dat") +
          "\n<ap_module>\nModuleName simple_strided\nModuleReps 2\nBufferSizes 2K 4K\n"
          "WorkUnits 2\nHint romio_cb_write enable\n</ap_module>\n",
      opt);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    std::ifstream f(dir.file("res.csv"));
    std::vector<std::string> lines;
    for (std::string line; std::getline(f, line);)
      lines.push_back(line);
    REQUIRE(lines.size() == 5); // header + 2 tests x 2 reps
    const std::string &header = lines[0];
    CHECK(header.find("strip_size") != std::string::npos);
    CHECK(header.find("hint:romio_cb_write") != std::string::npos);
    CHECK(header.find("bandwidth_MiBps") != std::string::npos);
    // The rows carry the typed results: rep 1 of test 2 is the last row.
    const auto &t = ran.run.modules.at(0).tests.at(1);
    CHECK(lines[4].find(",4K,4096,") != std::string::npos);
    CHECK(lines[4].find("," + std::to_string(t.reps.at(1).bytes) + ",") != std::string::npos);
    CHECK(!pio::test::exists(dir.file("res.csv.tmp")));
    return lines.size() == 5;
  }));
}
