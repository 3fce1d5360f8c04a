// b_eff's rules as pure functions (b_eff paper §4): ring partitions of the six ring patterns,
// random and extra patterns, message lengths, the looplength rule and the averaging of b_eff.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "averaging.hpp"
#include "beff_figure.hpp"
#include "lengths.hpp"
#include "looplength.hpp"
#include "patterns.hpp"

using namespace pio::b_eff;
using V = std::vector<int>;

namespace {
V rep(int count, int size) { return V(static_cast<size_t>(count), size); }
V cat(V a, const V &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
int count(const V &v, int x) { return static_cast<int>(std::count(v.begin(), v.end(), x)); }

/// The message rank r sends in step k is the one its destination receives in step k.
bool steps_match(const Pattern &p) {
  for (int r = 0; r < p.participants; ++r)
    for (size_t k = 0; k < p.steps[static_cast<size_t>(r)].size(); ++k) {
      const Step &s = p.steps[static_cast<size_t>(r)][k];
      if (s.to == kNone)
        continue;
      const auto &peer = p.steps.at(static_cast<size_t>(s.to));
      if (peer.size() != p.steps[static_cast<size_t>(r)].size() || peer[k].from != r)
        return false;
    }
  return true;
}
} // namespace

TEST_CASE("ring sizes for 7, 28 and 29 processes, by hand from §4", "[beff]") {
  // n = 7: pattern 1 is 0&1, 2&3, 4&5&6 (the paper's example); pattern 2 is one ring (n <= 7).
  CHECK(ring_sizes(1, 7) == V{2, 2, 3});
  CHECK(ring_sizes(2, 7) == V{7});
  for (int k = 3; k <= 6; ++k)
    CHECK(ring_sizes(k, 7) == V{7});
  // n = 28: 14 rings of 2; 7 of 4; rings = floor(28/8 + 0.4) = 3 -> 9 9 10, the larger first
  // since 9 is odd; floor(28/16 + 0.4) = 2 rings of 14; one ring of 28 for 5 and 6.
  CHECK(ring_sizes(1, 28) == rep(14, 2));
  CHECK(ring_sizes(2, 28) == rep(7, 4));
  CHECK(ring_sizes(3, 28) == V{10, 9, 9});
  CHECK(ring_sizes(4, 28) == V{14, 14});
  CHECK(ring_sizes(5, 28) == V{28});
  CHECK(ring_sizes(6, 28) == V{28});
  // n = 29: 13*2 + 1*3; 6*4 + 1*5; 8 + 3*7 (the §4 remainder 3*7); 14 + 15; 29; 29.
  CHECK(ring_sizes(1, 29) == cat(rep(13, 2), {3}));
  CHECK(ring_sizes(2, 29) == cat(rep(6, 4), {5}));
  CHECK(ring_sizes(3, 29) == V{8, 7, 7, 7});
  CHECK(ring_sizes(4, 29) == V{14, 15});
  CHECK(ring_sizes(5, 29) == V{29});
  CHECK(ring_sizes(6, 29) == V{29});
  // A few more: 1 and 2 processes, 16, 40, 130.
  for (int k = 1; k <= 6; ++k) {
    CHECK(ring_sizes(k, 1) == V{1});
    CHECK(ring_sizes(k, 2) == V{2});
  }
  CHECK(ring_sizes(3, 16) == V{8, 8});
  CHECK(ring_sizes(4, 40) == V{20, 20});
  CHECK(ring_sizes(5, 40) == V{40});
  CHECK(ring_sizes(4, 130) == V{32, 32, 33, 33}); // standard size 130/4 = 32
  CHECK(ring_sizes(5, 130) == V{65, 65});         // standard size 130/2 = 65
}

TEST_CASE("ring partitions follow §4's rules for 1..200 processes", "[beff]") {
  for (int n = 1; n <= 200; ++n) {
    for (int k = 1; k <= 6; ++k) {
      const V s = ring_sizes(k, n);
      REQUIRE(std::accumulate(s.begin(), s.end(), 0) == n); // every process in one ring
    }
    CHECK(ring_sizes(6, n) == V{n});
    const V one = ring_sizes(1, n); // rings of 2, the last may have 3
    if (n >= 2) {
      CHECK(count(one, 2) + count(one, 3) == static_cast<int>(one.size()));
      CHECK(count(one, 3) <= 1);
    }
    const V two = ring_sizes(2, n); // rings of 4, remainders 1*3, 1*5 or 2*5; n <= 7: one ring
    if (n <= 7) {
      CHECK(two == V{n});
    } else {
      CHECK(count(two, 3) + count(two, 4) + count(two, 5) == static_cast<int>(two.size()));
      CHECK(((count(two, 3) == 0 && count(two, 5) <= 2) ||
             (count(two, 3) == 1 && count(two, 5) == 0)));
    }
    const V three = ring_sizes(3, n); // from 29 on: rings of 8, remainders 3*7 .. 1*7, 1*9 .. 4*9
    if (n >= 29) {
      CHECK(count(three, 7) + count(three, 8) + count(three, 9) == static_cast<int>(three.size()));
      CHECK(count(three, 7) <= 3);
      CHECK(count(three, 9) <= 4);
      CHECK((count(three, 7) == 0 || count(three, 9) == 0));
    }
    // Patterns 4 and 5: standard sizes min(max(16, n/4), n) and min(max(32, n/2), n).
    CHECK(standard_ring_size(4, n) == std::min(std::max(16, n / 4), n));
    CHECK(standard_ring_size(5, n) == std::min(std::max(32, n / 2), n));
  }
}

TEST_CASE("ring patterns: left then right neighbour, 2 messages per process, 1 in a ring of 2",
          "[beff]") {
  // n = 7, pattern 1: rings {0,1} {2,3} {4,5,6}; rank 4 sends to its left neighbour 6 and
  // receives from its right neighbour 5, then sends to 5 and receives from 6.
  const Pattern p = ring(1, 7);
  CHECK(p.steps[4].size() == 2);
  CHECK(p.steps[4][0].to == 6);
  CHECK(p.steps[4][0].from == 5);
  CHECK(p.steps[4][1].to == 5);
  CHECK(p.steps[4][1].from == 6);
  // A ring of 2: one message to the partner and one from it (b_eff 3.6 removes the pong that
  // goes where the ping went, and counts one message per process).
  REQUIRE(p.steps[0].size() == 1);
  CHECK(p.steps[0][0].to == 1);
  CHECK(p.steps[0][0].from == 1);
  CHECK(p.messages() == 2 + 2 + 6);
  CHECK(p.layout == "2*2+1*3");
  CHECK(ring(1, 2).messages() == 2);
  CHECK(random_ring(1, 2, 1).messages() == 2);
  for (int n = 1; n <= 64; ++n) {
    for (int k = 1; k <= 6; ++k) {
      const Pattern r = ring(k, n);
      REQUIRE(steps_match(r));
      std::int64_t want = 0; // 2 per process, 1 in rings of at most 2
      for (int size : ring_sizes(k, n))
        want += size <= 2 ? size : 2 * size;
      CHECK(r.messages() == want);
      CHECK(r.participants == n);
    }
    for (const Pattern &q : all_patterns(n, PatternChoice{}))
      REQUIRE(steps_match(q));
  }
}

TEST_CASE("random patterns are seeded permutations and reproducible", "[beff]") {
  for (int n : {1, 2, 5, 16, 64}) {
    V o = random_order(n, 42);
    CHECK(o == random_order(n, 42));
    V sorted = o;
    std::sort(sorted.begin(), sorted.end());
    V id(static_cast<size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    CHECK(sorted == id);
  }
  CHECK(random_order(64, 1) != random_order(64, 2));
  const Pattern a = random_ring(3, 16, 7), b = random_ring(3, 16, 7), c = random_ring(4, 16, 7);
  CHECK(a.family == Family::Random);
  CHECK(a.messages() == 32);
  bool same = true, other = true;
  for (int r = 0; r < 16; ++r) {
    same = same && a.steps[r][0].to == b.steps[r][0].to && a.steps[r][1].to == b.steps[r][1].to;
    other = other && a.steps[r][0].to == c.steps[r][0].to;
  }
  CHECK(same);
  CHECK_FALSE(other); // the k-th pattern draws its own permutation
  // One ring of all: following "to" in step 0 visits every process once.
  int at = 0, visited = 0;
  do {
    at = a.steps[at][0].to;
    ++visited;
  } while (at != 0);
  CHECK(visited == 16);
}

TEST_CASE("the additional patterns of §4", "[beff]") {
  const Pattern w = worst_cycle(6); // 0, 5, 1, 4, 2, 3
  CHECK(w.steps[0][1].to == 5);
  CHECK(w.steps[5][1].to == 1);
  CHECK(w.steps[3][1].to == 0);
  const Pattern best = best_bisection(5), worst = worst_bisection(5);
  CHECK(best.participants == 4);
  CHECK(best.messages() == 4);
  CHECK(best.steps[2][0].to == 3);
  CHECK(best.steps[3][1].to == 2);
  CHECK(worst.steps[0][0].to == 3);
  CHECK(worst.steps[1][0].to == 2);
  CHECK(worst.steps[3][1].to == 0);
  CHECK(balanced_dims(12, 2) == V{4, 3});
  CHECK(balanced_dims(12, 3) == V{3, 2, 2});
  CHECK(balanced_dims(7, 2) == V{7, 1});
  CHECK(balanced_dims(8, 3) == V{2, 2, 2});
  CHECK(cartesian_participants(7, 2) == 6); // 7 x 1 is no grid: 3 x 2
  CHECK(cartesian_participants(5, 2) == 4);
  CHECK(cartesian_participants(4, 3) == 4); // 2 x 2 x 1
  CHECK(cartesian_participants(3, 2) == 3);
  const Pattern x = cartesian(6, 2, 0), all = cartesian(6, 2, -1);
  CHECK(x.layout == "3x2");
  CHECK(x.steps[0].size() == 2);
  CHECK(x.steps[0][0].to == 2); // (0,0) -> (1,0) = rank 2
  CHECK(x.steps[0][0].from == 4);
  CHECK(all.steps[0].size() == 4);
  CHECK(all.steps[0][2].to == 1); // y: (0,0) -> (0,1)
  CHECK(all.messages() == 24);
  const Pattern pp = ping_pong();
  CHECK(pp.sendrecv_only);
  CHECK(pp.messages() == 2);
  // 4 processes: 6 rings, 6 random, worst cycle, 2 bi-sections, 2-D x y all, 3-D x y all,
  // ping-pong.
  const auto ps = all_patterns(4, PatternChoice{});
  CHECK(ps.size() == 6 + 6 + 1 + 2 + 3 + 3 + 1);
  CHECK(all_patterns(1, PatternChoice{}).size() == 6 + 6 + 1); // no pairs, no grid
}

TEST_CASE("21 message lengths up to L_max = memory / 128", "[beff]") {
  CHECK(lmax_rule(8LL << 30, true) == 64LL << 20);
  CHECK(lmax_rule(64LL << 30, true) == 128LL << 20); // §4: 128 MB with 32-bit int
  CHECK(lmax_rule(64LL << 30, false) == 512LL << 20);
  CHECK(lmax_rule(1000, true) == 4096);
  const auto l = message_lengths(1 << 20);
  REQUIRE(l.size() == 21);
  for (int i = 0; i <= 12; ++i)
    CHECK(l[static_cast<size_t>(i)] == (1 << i));
  // a = (1M / 4K)^(1/8) = 2: 8K, 16K, ..., 1M.
  for (int k = 1; k <= 8; ++k)
    CHECK(l[static_cast<size_t>(12 + k)] == (4096LL << k));
  const auto m = message_lengths(64LL << 20);
  CHECK(m.back() == 64LL << 20);
  CHECK(std::is_sorted(m.begin(), m.end()));
  CHECK(m[13] == std::llround(4096 * std::pow(16384.0, 1.0 / 8)));
  CHECK_THROWS(message_lengths(1024));
}

TEST_CASE("looplength: 300 first, then 2.5-5 ms per loop, at least 1", "[beff]") {
  const LoopRule rule;
  CHECK(next_looplength(0, 0, 1, rule) == 300);
  CHECK(next_looplength(300, 0.3e-3, 2, rule) == 300); // 2 us per iteration: capped at 300
  CHECK(next_looplength(300, 6e-3, 2, rule) == 125);   // 40 us: 125 iterations = 5 ms
  CHECK(next_looplength(10, 4e-3, 3.2, rule) == 3);    // 1.28 ms: 3.84 ms
  CHECK(next_looplength(1, 20e-3, 2, rule) == 1);      // 40 ms: the minimum, 1
  // A synthetic clock: iterations of tau seconds; the next loop lands in [2.5, 5] ms whenever
  // tau < 2.5 ms and the cap does not bind.
  for (double tau = 1e-6; tau < 2.5e-3; tau *= 1.37) {
    const std::int64_t n = next_looplength(7, 7 * tau / 2, 2, rule); // half as long before
    const double loop = static_cast<double>(n) * tau;
    if (n < 300) {
      CHECK(loop <= 5e-3 + 1e-12);
      CHECK(loop >= 2.5e-3);
    }
  }
  const LoopRule fast{20, 0.5e-3};
  CHECK(next_looplength(0, 0, 1, fast) == 20);
  CHECK(next_looplength(20, 1e-3, 1, fast) == 10);
}

TEST_CASE("logavg and b_eff against hand-computed values", "[beff]") {
  CHECK(logavg({4, 16}) == Approx(8));
  CHECK(logavg({2, 8, 4}) == Approx(4));
  CHECK_THROWS(logavg({}));
  CHECK_THROWS(logavg({1, 0}));
  CHECK(bandwidth(1000, 8, 10, 0.5) == Approx(160000));
}

TEST_CASE("the b_eff figure from a synthetic typed ModuleResult", "[beff]") {
  // Two ring patterns, two random patterns and ping-pong on 4 processes; 21 lengths up to 1M.
  FigureFacts f;
  f.processes = 4;
  f.lengths = message_lengths(1 << 20);
  f.measured.assign(21, true);
  f.methods = {"Sendrecv", "Alltoallv", "Irecv/Isend/Waitall"};
  f.patterns = {{"ring-1", Family::Ring, "", 8, 4},
                {"ring-2", Family::Ring, "", 8, 4},
                {"random-1", Family::Random, "", 8, 4},
                {"random-2", Family::Random, "", 8, 4},
                {"ping-pong", Family::Extra, "", 2, 2}};
  // Target b in MB/s for the best method and repetition: ring-1 100 except 2200 at L_max
  // (sum over L = 20 * 100 + 2200 = 4200, / 21 = 200), ring-2 400, random-1 50, random-2 200,
  // ping-pong 77. Method 1 reaches half, rep 1 reaches a quarter of the best.
  auto target = [](int p, int l) {
    const double v[] = {100, 400, 50, 200, 77};
    return (p == 0 && l == 20 ? 2200.0 : v[p]) * 1e6;
  };
  pio::ModuleResult res;
  res.reps = 3;
  for (int p = 0; p < 5; ++p)
    for (int l = 0; l < 21; ++l)
      for (int m = 0; m < 3; ++m) {
        if (p == 4 && m > 0)
          continue;
        pio::TestResult t;
        t.index = static_cast<int>(f.tests.size());
        f.tests.push_back({p, l, m});
        const std::int64_t loops = 1 + (l % 5); // any looplength: b uses it
        f.looplengths.push_back({loops, loops});
        for (int r = 0; r < 2; ++r) {
          const double b = target(p, l) / (m == 1 ? 2 : 1) / (r == 1 ? 4 : 1);
          pio::Repetition rep;
          rep.rep = r;
          rep.rank_time_s.max = static_cast<double>(f.lengths[static_cast<size_t>(l)]) *
                                static_cast<double>(f.patterns[static_cast<size_t>(p)].messages) *
                                static_cast<double>(loops) / b;
          t.reps.push_back(rep);
        }
        res.tests.push_back(t);
      }
  const pio::Figure fig = make_figure(f, res);
  std::map<std::string, double> v;
  for (const auto &x : fig.values)
    v[x.name] = x.value;
  REQUIRE(fig.values.front().name == "b_eff");
  // rings = sqrt(200 * 400), random = sqrt(50 * 200), b_eff = (200*400*50*200)^(1/4) = 168.179.
  CHECK(v["ring patterns (logavg)"] == Approx(std::sqrt(200.0 * 400)));
  CHECK(v["random patterns (logavg)"] == Approx(100));
  CHECK(v["b_eff"] == Approx(168.179).epsilon(1e-5));
  CHECK(v["b_eff per process"] == Approx(168.179 / 4).epsilon(1e-5));
  // At L_max: (2200 * 400 * 50 * 200)^(1/4) = 306.28; rings alone sqrt(2200 * 400) / 4.
  CHECK(v["b_eff at L_max"] == Approx(std::pow(2200.0 * 400 * 50 * 200, 0.25)));
  CHECK(v["b_eff at L_max per process, ring patterns"] == Approx(std::sqrt(2200.0 * 400) / 4));
  CHECK(v["ping-pong bandwidth at L_max"] == Approx(77));
  CHECK(v["L_max"] == 1 << 20);
  // Alltoallv alone reaches half everywhere: its b_eff is half.
  const auto &methods = fig.tables.at(3);
  CHECK(std::get<double>(methods.rows.at(1).at(1)) == Approx(168.179 / 2).epsilon(1e-5));
  // Too few lengths or reps are flagged.
  FigureFacts few = f;
  few.measured.assign(21, false);
  few.measured[0] = few.measured[20] = true;
  res.reps = 2;
  const pio::Figure partial = make_figure(few, res);
  bool flagged_lengths = false, flagged_reps = false;
  for (const auto &n : partial.notes) {
    flagged_lengths = flagged_lengths || n.find("not a valid b_eff") != std::string::npos;
    flagged_reps = flagged_reps || n.find("ModuleReps 2") != std::string::npos;
  }
  CHECK(flagged_lengths);
  CHECK(flagged_reps);

  // What was not measured is NaN ("not measured" on the console and in Table 1), never 0: the
  // memory here (no MemoryPerProcess, L_max given), ping-pong without the extra patterns, and
  // every value at L_max when L_max is not among the lengths.
  const auto value = [](const pio::Figure &g, const std::string &name) {
    for (const auto &x : g.values)
      if (x.name == name)
        return x.value;
    FAIL("no value " << name);
    return 0.0;
  };
  const auto table1 = [](const pio::Figure &g, size_t column) {
    const auto &t = g.tables.at(0);
    REQUIRE(t.name == "Table 1 (b_eff paper §4.1)");
    return t.rows.at(0).at(column);
  };
  CHECK(std::isnan(value(fig, "memory per process")));
  FigureFacts no_extra = f;
  no_extra.patterns.back().name = "worst-cycle"; // the extra pattern is not ping-pong
  const pio::Figure without = make_figure(no_extra, res);
  CHECK(std::isnan(value(without, "ping-pong bandwidth at L_max")));
  CHECK(std::get<std::string>(table1(without, 4)) == "not measured");
  CHECK(std::get<double>(table1(without, 5)) == Approx(std::pow(2200.0 * 400 * 50 * 200, 0.25)));
  FigureFacts short_run = f;
  short_run.measured[20] = false;
  const pio::Figure no_lmax = make_figure(short_run, res);
  for (const char *name :
       {"ping-pong bandwidth at L_max", "b_eff at L_max", "b_eff at L_max per process",
        "b_eff at L_max per process, ring patterns"})
    CHECK(std::isnan(value(no_lmax, name)));
  for (size_t c = 4; c < 8; ++c)
    CHECK(std::get<std::string>(table1(no_lmax, c)) == "not measured");
  FigureFacts with_memory = f;
  with_memory.memory_per_process = 1 << 27;
  CHECK(value(make_figure(with_memory, res), "memory per process") == 1 << 27);
  // The protocol table (a row per pattern, length and method) is for the results file.
  CHECK(fig.tables.back().detail);
  CHECK(!fig.tables.at(1).detail);
}
