// IMB PingPong (IMB 3.2 User Guide §3.3.2.1) through the harness: no file, two ranks, its
// semantics (half a round trip, n_sample messages per sample) turned into IMB's figures.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"

using pio::test::on_root;

TEST_CASE("PingPong reports t = dt/2 and X/t on two ranks", "[imb]") {
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
    const auto &m = ran.run.modules.at(0);
    CHECK(m.tests.size() == 3);
    // n_sample = max(1, min(MSGSPERSAMPLE, OVERALL_VOL / X)): 20, 20, 4.
    CHECK(m.tests[0].comm->ops_per_unit == 20);
    CHECK(m.tests[2].comm->ops_per_unit == 4);
    CHECK(m.tests[0].procs == 2);
    // Both ranks send n_sample messages of X bytes per unit.
    CHECK(m.tests[1].reps[0].bytes == 2 * 20 * 1024);
    CHECK(m.tests[0].file_use == pio::FileUse::None);
    bool ok = m.tests.size() == 3;
    for (const auto &t : m.tests) {
      const auto &r = t.reps.at(0);
      REQUIRE(r.op);
      // t = own time / n_sample / 2 (one unit), throughput = X / t.
      CHECK(r.op->t_max_us ==
            Approx(r.rank_time_s.max / static_cast<double>(t.comm->ops_per_unit) / 2 * 1e6));
      if (t.buffer_size > 0)
        CHECK(r.op->mbytes_per_s ==
              Approx(static_cast<double>(t.buffer_size) / 1048576.0 / (r.op->t_max_us * 1e-6)));
      ok = ok && r.op->t_max_us > 0;
    }
    CHECK(ran.out.find("#bytes #repetitions") != std::string::npos);
    return ok;
  }));
}
