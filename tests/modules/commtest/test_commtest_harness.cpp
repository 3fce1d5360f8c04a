// COMMTEST through the harness (COMMTEST description): no file, pairs of ranks as rank groups,
// Verify checking every received byte, one SWAP per unit with the repeated way's inner loop
// divided out, the pairings 0-2 and 0-2 with 1-3 at once, the statistics figure, and a clear
// failure (never a hang) when a pairing needs more processes than the run has.
#include <catch2/catch.hpp>

#include <algorithm>

#include "mpi_test.hpp"
#include "plan.hpp"
#include "statistics.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

std::string config(const pio::test::TempDir &dir, const std::string &directives) {
  return "TestFile " + dir.file("unused") + "\nVerify on\n<ap_module>\nModuleName commtest\n" +
         directives + "</ap_module>\n";
}

const std::string &param(const pio::TestResult &t, const std::string &key) {
  return t.params.at(key);
}

} // namespace

TEST_CASE("every protocol swaps verified data through the harness", "[commtest]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  // Small: the 8KB experiment, two N, the repeated way (each message twice). Every protocol at
  // 2 ranks; at 4 ranks (slow on a small machine) a few, the engine test covers all of them.
  const std::string protocols = n == 2 ? "all" : n < 2 ? "0,0" : "0,0 0,4 0,6 1,4 1,6";
  const auto ran = pio::test::run_config(
      dir, "all",
      config(dir, "Experiments 8KB\nMessages 1 16\nWays repeated\nRepeats 2\nPairings 0-1\n"
                  "Protocols " +
                      protocols + "\n"));
  if (n < 2) {
    REQUIRE(all_ranks(ran.exit_code == 1));
    REQUIRE(on_root([&] {
      const auto &t = ran.run.modules.at(0).tests.at(0);
      CHECK(t.error);
      return t.error && t.error->message.find("needs 2 processes") != std::string::npos;
    }));
    return;
  }
  // (21 basic + 12 reorganised) or (5 basic + 2 reorganised) series, 2 N each.
  const size_t series = n == 2 ? 33 : 7;
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::ModuleResult &m = ran.run.modules.at(0);
    CHECK(m.tests.size() == series * 2);
    bool ok = m.tests.size() == series * 2;
    for (const auto &t : m.tests) {
      const std::int64_t repeats = param(t, "way") == "repeated" ? 2 : 1;
      CHECK(!t.error);
      CHECK(t.file_use == pio::FileUse::None);
      CHECK(t.procs == 2);
      REQUIRE(t.comm);
      CHECK(t.comm->ops_per_unit == repeats);
      CHECK(t.comm->message_bytes == 8192);
      CHECK(t.buffer_size == 8192 / std::stoll(param(t, "messages")));
      const auto &r = t.reps.at(0);
      // Both processes sent the volume `repeats` times.
      CHECK(r.bytes == 2 * 8192 * repeats);
      REQUIRE(r.op);
      // t per SWAP = max over the pair of own time / repeats.
      CHECK(r.op->t_max_us == Approx(r.rank_time_s.max / static_cast<double>(repeats) * 1e6));
      ok = ok && !t.error && r.op->t_max_us > 0;
    }
    REQUIRE(m.figure);
    CHECK(m.figure->tables.at(0).rows.size() == series);
    CHECK(m.figure->tables.at(1).rows.size() == series * 2);
    return ok;
  }));
}

TEST_CASE("the figure's statistics come from the tests' t_max", "[commtest]") {
  if (pio::test::size() < 2)
    return;
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "stats",
      config(dir, "Experiments 8KB\nMessages 1 4 16\nProtocols 0,3 1,0\nVariants basic\n"
                  "Ways warm\nPairings 0-1\nN1 4\nN2 16\nModelMessages 4 16\nModuleReps 2\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::ModuleResult &m = ran.run.modules.at(0);
    REQUIRE(m.tests.size() == 6);
    REQUIRE(m.figure);
    const auto &stats = m.figure->tables.at(0);
    REQUIRE(stats.rows.size() == 2);
    for (size_t s = 0; s < 2; ++s) {
      std::vector<commtest::Timing> timings;
      for (size_t i = 3 * s; i < 3 * s + 3; ++i) {
        const auto &t = m.tests[i];
        // The best repetition's maximum over the pair.
        const double best = std::min(t.reps.at(0).op->t_max_us, t.reps.at(1).op->t_max_us);
        CHECK(t.summary.op->t_max_us == Approx(best));
        timings.push_back({std::stoll(param(t, "messages")), best * 1e-6});
      }
      commtest::StatsChoice c;
      c.n1 = 4;
      c.n2 = 16;
      c.model = {4, 16};
      const auto want = commtest::series_stats(timings, 8192, s == 1, c);
      const auto &row = stats.rows[s];
      CHECK(std::get<double>(row[8]) == Approx(*want.a * 1e6));          // a [us]
      CHECK(std::get<double>(row[10]) == Approx(*want.latency_s * 1e6)); // latency [us]
      CHECK(std::get<double>(row[11]) == Approx(want.swap_Bps / 1048576.0));
      CHECK(std::get<double>(row[15]) == Approx(*want.model_error_max * 100));
    }
    CHECK(stats.columns[8] == "a [us]");
    CHECK(stats.columns[15] == "model err max [%]");
    const auto &notes = m.figure->notes;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string &n) {
      return n == "model error over the subset N = 4 16";
    }));
    CHECK(ran.out.find("COMMTEST") != std::string::npos);
    return true;
  }));
}

TEST_CASE("the cache-invalidated way sweeps twice the CacheSize directive", "[commtest]") {
  if (pio::test::size() < 2)
    return;
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "cache",
      config(dir, "Experiments 8KB\nMessages 1 8\nProtocols 0,2 1,4\nWays invalidated\n"
                  "Pairings 0-1\nDetectCache off\nCacheSize 1M\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::ModuleResult &m = ran.run.modules.at(0);
    CHECK(m.tests.size() == 2 * 2 * 2);
    REQUIRE(m.figure);
    const auto &notes = m.figure->notes;
    return std::any_of(notes.begin(), notes.end(), [](const std::string &n) {
      return n.find("sweeping 2M (twice the last-level cache of 1M, from CacheSize directive)") !=
             std::string::npos;
    });
  }));
}

// 4 ranks: the pairings need 3 and 4 ranks; below, the clear failure is checked.
TEST_CASE("pairings 0-2 and 0-2 with 1-3 at once", "[commtest][4ranks]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "pairs",
      config(dir, "Experiments 8KB\nMessages 32\nProtocols 0,3 1,4\nVariants basic "
                  "reorganised\nWays warm\nPairings 0-2+1-3 0-2\n"));
  if (n < 4) {
    // 0-2+1-3 needs 4 processes, 0-2 three: each test fails with a clear message, no hang.
    REQUIRE(all_ranks(ran.exit_code == 1));
    REQUIRE(on_root([&] {
      const auto &tests = ran.run.modules.at(0).tests;
      bool ok = !tests.empty();
      for (const auto &t : tests) {
        const std::string need = param(t, "pairing") == "0-2" ? "3" : "4";
        const bool clear =
            t.error && t.error->message.find("needs " + need + " processes") != std::string::npos;
        CHECK(clear);
        ok = ok && clear;
      }
      return ok;
    }));
    return;
  }
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &tests = ran.run.modules.at(0).tests;
    CHECK(tests.size() == 2 * 2 * 2);
    bool ok = tests.size() == 8;
    for (const auto &t : tests) {
      CHECK(!t.error);
      const bool both = param(t, "pairing") == "0-2+1-3";
      CHECK(t.groups == (both ? 2 : 1));
      CHECK(t.procs == (both ? 4 : 2));
      const auto &r = t.reps.at(0);
      // Each process of each pair sent the volume once.
      CHECK(r.bytes == (both ? 4 : 2) * 8192);
      // The reported time is the maximum over every participating process (both pairs).
      REQUIRE(r.op);
      CHECK(r.op->t_max_us == Approx(r.rank_time_s.max * 1e6));
      const auto &groups = r.phases.at(0).groups;
      CHECK(groups.size() == (both ? 2u : 1u));
      double worst = 0;
      for (const auto &g : groups)
        worst = std::max(worst, g.t_max_us);
      CHECK(r.op->t_max_us == Approx(worst));
      ok = ok && !t.error;
    }
    return ok;
  }));
}

// 4 ranks: auto adds 0-2 and 0-2+1-3 with four processes.
TEST_CASE("Pairings auto: 0-1, and with four processes 0-2 and 0-2+1-3", "[commtest][4ranks]") {
  if (pio::test::size() < 2)
    return;
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "auto",
      config(dir, "Experiments 8KB\nMessages 4\nProtocols 0,6\nVariants basic\nWays warm\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &tests = ran.run.modules.at(0).tests;
    std::vector<std::string> pairings;
    for (const auto &t : tests)
      pairings.push_back(param(t, "pairing"));
    const std::vector<std::string> want = pio::test::size() >= 4
                                              ? std::vector<std::string>{"0-1", "0-2", "0-2+1-3"}
                                              : std::vector<std::string>{"0-1"};
    CHECK(pairings == want);
    return pairings == want;
  }));
}
