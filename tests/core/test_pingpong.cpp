// IMB PingPong (IMB 3.2 §3.3.2.1) through the harness: no file, two ranks.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"

using pio::test::on_root;

TEST_CASE("PingPong reports t = dt/2 and X/1.048576/t on two ranks", "[imb]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "pp",
      "TestFile " + dir.file("unused") +
          "\n<ap_module>\nModuleName imb_pingpong\nMsgLengths 0 1K 64K\nMsgsPerSample 20\n"
          "OverallVolume 256K\n</ap_module>\n");
  if (pio::test::size() < 2) {
    // PingPong needs two processes: a clear failure, not a hang.
    REQUIRE(pio::test::all_ranks(ran.exit_code == 1));
    REQUIRE(on_root([&] {
      const std::string e = ran.results["modules"][0]["tests"][0]["error"].at("message");
      CHECK(e.find("needs 2 processes") != std::string::npos);
      return e.find("needs 2 processes") != std::string::npos;
    }));
    return;
  }
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.results.at("modules").at(0);
    CHECK(m.at("tests").size() == 3);
    // n_sample = max(1, min(MSGSPERSAMPLE, OVERALL_VOL / X)): 20, 20, 4.
    CHECK(m["tests"][0]["params"]["n_sample"] == "20");
    CHECK(m["tests"][2]["params"]["n_sample"] == "4");
    // Both ranks send n_sample messages of X bytes per unit.
    CHECK(m["tests"][1]["reps"][0]["bytes"] == 2 * 20 * 1024);
    CHECK(m["tests"][0]["file_use"] == "none");
    const auto &rows = m.at("figure").at("rows");
    CHECK(rows.size() == 3);
    for (const auto &r : rows)
      if (r["bytes"].get<double>() > 0)
        CHECK(r["Mbytes_per_s"].get<double>() ==
              Approx(r["bytes"].get<double>() / 1.048576 / r["t_usec"].get<double>()));
    CHECK(ran.out.find("#bytes #repetitions") != std::string::npos);
    return rows.size() == 3;
  }));
}
