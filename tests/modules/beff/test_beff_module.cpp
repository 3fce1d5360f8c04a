// The b_eff module through the harness (b_eff paper §4): one test per (length, pattern, method),
// messages verified, and the figure's b_eff recomputed here from the typed results alone.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {
/// A small b_eff block: L_max 64K, looplength at most 4, loops of at most 0.5 ms, 2 reps.
std::string block(const std::string &lengths, const std::string &extra) {
  return "<ap_module>\nModuleName beff\nVerify on\nModuleReps 2\nLmax 64K\nLengths " + lengths +
         "\nRandomPatterns 2\nLooplength 4\nLoopTime 0.5\n" + extra + "</ap_module>\n";
}
double logavg(const std::vector<double> &v) {
  double s = 0;
  for (double x : v)
    s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}
} // namespace

TEST_CASE("b_eff runs every pattern and method and its figure follows §4", "[beff]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "beff", block("0 20", "Patterns ring random\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const pio::ModuleResult &m = ran.run.modules.at(0);
    // 2 lengths x (6 rings + 2 random) x 3 methods.
    CHECK(m.tests.size() == 2 * 8 * 3);
    // b per (pattern, length): bytes of a repetition = L * messages * looplength, so
    // b = bytes / max time; the maximum over methods and reps; avg over the 2 lengths.
    std::map<std::string, std::map<std::int64_t, double>> best;
    std::map<std::string, std::string> family;
    bool ok = true;
    for (const auto &t : m.tests) {
      CHECK_FALSE(t.error);
      CHECK(t.file_use == pio::FileUse::None);
      REQUIRE(t.reps.size() == 2);
      const std::int64_t messages = std::stoll(t.params.at("messages"));
      const std::string &pat = t.params.at("pattern");
      family[pat] = pat.rfind("ring-", 0) == 0     ? "ring"
                    : pat.rfind("random-", 0) == 0 ? "random"
                                                   : "x";
      for (const auto &r : t.reps) {
        const std::int64_t per_loop = t.buffer_size * messages;
        CHECK(r.bytes % per_loop == 0); // a whole number of executions
        const std::int64_t loops = r.bytes / per_loop;
        CHECK(loops >= 1);
        CHECK(loops <= 4);
        ok = ok && r.rank_time_s.max > 0;
        double &b = best[pat][t.buffer_size];
        b = std::max(b, static_cast<double>(r.bytes) / r.rank_time_s.max);
      }
    }
    std::vector<double> rings, random;
    for (const auto &[pat, by_l] : best) {
      double sum = 0;
      for (const auto &[l, b] : by_l)
        sum += b;
      if (family[pat] == "ring")
        rings.push_back(sum / 2);
      else if (family[pat] == "random")
        random.push_back(sum / 2);
    }
    REQUIRE(m.figure);
    CHECK(m.figure->values.at(0).name == "b_eff");
    const double want = logavg({logavg(rings), logavg(random)}) / 1e6;
    CHECK(m.figure->values.at(0).value == Approx(want).epsilon(1e-9));
    CHECK(m.figure->values.at(2).value == 65536); // L_max
    bool noted = false;
    for (const auto &note : m.figure->notes)
      noted = noted || note.find("only 2 of the 21") != std::string::npos;
    CHECK(noted);
    CHECK(ran.out.find("b_eff") != std::string::npos);
    // The console: one line for the 48 tests instead of their rows, then the figure, whose
    // values not measured (ping-pong without the extra patterns) say so, never 0.
    const bool compact =
        ran.out.find("  48 tests: a row per repetition in the results file and CSV") !=
            std::string::npos &&
        ran.out.find("rank mean s") == std::string::npos;
    const bool not_measured =
        ran.out.find("  ping-pong bandwidth at L_max = not measured\n") != std::string::npos &&
        ran.out.find("= 0 MB/s") == std::string::npos && ran.out.find("= 0 B") == std::string::npos;
    CHECK(compact);
    CHECK(not_measured);
    ok = ok && compact && not_measured;
    return ok && rings.size() == 6 && random.size() == 2;
  }));
}

// 4 ranks: the 2x2 grids (x, y and all) and ping-pong on 2 of 4 ranks, the others idle, exist only
// at 4 ranks.
TEST_CASE("the additional patterns run on their ranks and are reported, not averaged",
          "[beff][4ranks]") {
  const int n = pio::test::size();
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "extra", block("20", "Methods sendrecv\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.run.modules.at(0);
    // 6 rings + 2 random + worst cycle, and from 2 processes 2 bi-sections, the grids (2 x 1:
    // x and all; 2 x 2 and 2 x 2 x 1: x, y and all) and ping-pong.
    const int extra = n == 1 ? 1 : n == 2 ? 1 + 2 + 2 + 2 + 1 : 1 + 2 + 3 + 3 + 1;
    CHECK(static_cast<int>(m.tests.size()) == 8 + extra);
    bool ok = true;
    for (const auto &t : m.tests) {
      CHECK_FALSE(t.error);
      const std::string &pat = t.params.at("pattern");
      if (pat == "ping-pong" || pat.rfind("bisection", 0) == 0)
        ok = ok && t.procs == n / 2 * 2 - (pat == "ping-pong" ? n / 2 * 2 - 2 : 0);
    }
    REQUIRE(m.figure);
    double pp = -1;
    for (const auto &v : m.figure->values)
      if (v.name == "ping-pong bandwidth at L_max")
        pp = v.value;
    CHECK((n == 1 ? std::isnan(pp) : pp > 0)); // one process: no ping-pong, "not measured"
    return ok;
  }));
}

TEST_CASE("b_eff's directives select methods and patterns, and limits are enforced", "[beff]") {
  pio::test::TempDir dir;
  const auto ran =
      pio::test::run_config(dir, "one", block("20", "Methods alltoallv\nPatterns ring\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.run.modules.at(0);
    CHECK(m.tests.size() == 6);
    bool all = true;
    for (const auto &t : m.tests)
      all = all && t.params.at("method") == "Alltoallv";
    return all && m.figure.has_value();
  }));
  const auto bad = pio::test::run_config(dir, "bad", block("20", "Methods fast\n"));
  REQUIRE(all_ranks(bad.exit_code != 0));
}
