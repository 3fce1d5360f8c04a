// COMMTEST's MPI-free parts: the statistics a, b, latency, bandwidths and the linear-model
// error against hand-computed values (COMMTEST description, results section), the figure built
// from a synthetic typed ModuleResult, the cache size from sysfs or the directive, the sweep,
// the protocol table and the plan.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cache.hpp"
#include "figure.hpp"
#include "pio/error.hpp"
#include "plan.hpp"
#include "statistics.hpp"

namespace fs = std::filesystem;
using namespace commtest;

namespace {

// T_N = 100 + 4 (N - 1) us for N = 1, 2, 4, 8 on the 8KB experiment (8192 bytes):
// 100, 104, 112, 128 us. a = (T8 - T4) / (8 - 4) = 4 us; b = 100 us / 8192 B.
const std::vector<Timing> kTimings = {{1, 100e-6}, {2, 104e-6}, {4, 112e-6}, {8, 128e-6}};
constexpr std::int64_t kVolume = 8192;
constexpr double kMiB = 1048576.0;

// Model a N + b V = 4 N + 100 us: errors 4/100, 4/104, 4/112, 4/128.
const double kErr[] = {4.0 / 100, 4.0 / 104, 4.0 / 112, 4.0 / 128};

StatsChoice choice(std::int64_t n1, std::int64_t n2, std::vector<std::int64_t> model = {}) {
  StatsChoice c;
  c.n1 = n1;
  c.n2 = n2;
  c.model = std::move(model);
  return c;
}

void write(const fs::path &p, const std::string &text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text << "\n";
}

} // namespace

TEST_CASE("unordered statistics: latency a, swap bandwidth 2/b, busy half of it", "[commtest]") {
  const SeriesStats s = series_stats(kTimings, kVolume, /*ordered=*/false, choice(4, 8));
  REQUIRE(s.a);
  CHECK(*s.a == Approx(4e-6));
  CHECK(s.b == Approx(100e-6 / 8192));
  CHECK(*s.latency_s == Approx(4e-6));
  CHECK(s.swap_Bps / kMiB == Approx(2 * 8192 / 100e-6 / kMiB)); // 156.25 MiB/s
  CHECK(s.swap_Bps / kMiB == Approx(156.25));
  REQUIRE(s.busy_Bps);
  CHECK(*s.busy_Bps / kMiB == Approx(78.125));
  CHECK(!s.idle_Bps);
  CHECK(!s.substituted);
  REQUIRE(s.model_error_mean);
  CHECK(*s.model_error_mean == Approx((kErr[0] + kErr[1] + kErr[2] + kErr[3]) / 4));
  CHECK(*s.model_error_max == Approx(0.04));
  CHECK(s.model_points == 4);
}

TEST_CASE("ordered statistics: latency a/2, idle bandwidth 2/b", "[commtest]") {
  const SeriesStats s = series_stats(kTimings, kVolume, /*ordered=*/true, choice(4, 8));
  CHECK(*s.latency_s == Approx(2e-6));
  REQUIRE(s.idle_Bps);
  CHECK(*s.idle_Bps / kMiB == Approx(156.25));
  CHECK(s.swap_Bps / kMiB == Approx(156.25));
  CHECK(!s.busy_Bps);
  // Doubling messages and volume leaves the model a N + b V unchanged.
  CHECK(*s.model_error_max == Approx(0.04));
}

TEST_CASE("a with other N1, N2; missing N fall back to the two largest", "[commtest]") {
  SeriesStats s = series_stats(kTimings, kVolume, false, choice(1, 2));
  CHECK(*s.a == Approx(4e-6));
  CHECK(s.n1 == 1);
  CHECK(s.n2 == 2);
  // Default N1 = 512, N2 = 1024 were not measured: N = 4 and 8 are used, and it says so.
  s = series_stats(kTimings, kVolume, false, choice(512, 1024));
  CHECK(s.substituted);
  CHECK(s.n1 == 4);
  CHECK(s.n2 == 8);
  CHECK(*s.a == Approx(4e-6));
  // b uses the minimum T_N wherever it is.
  const std::vector<Timing> dip = {{1, 100e-6}, {2, 80e-6}, {4, 112e-6}};
  s = series_stats(dip, kVolume, false, choice(2, 4));
  CHECK(s.b == Approx(80e-6 / 8192));
  CHECK(*s.a == Approx(16e-6));
  // One point: b only.
  s = series_stats({{4, 10e-6}}, kVolume, false, choice(512, 1024));
  CHECK(!s.a);
  CHECK(!s.latency_s);
  CHECK(!s.model_error_mean);
  CHECK(s.b == Approx(10e-6 / 8192));
}

TEST_CASE("the model error over a chosen subset of N", "[commtest]") {
  const SeriesStats s = series_stats(kTimings, kVolume, false, choice(4, 8, {4, 8}));
  CHECK(s.model_points == 2);
  CHECK(*s.model_error_mean == Approx((kErr[2] + kErr[3]) / 2));
  CHECK(*s.model_error_max == Approx(kErr[2]));
}

TEST_CASE("the figure from a synthetic typed ModuleResult", "[commtest]") {
  PlanChoice pc;
  pc.experiments = {"8KB"};
  pc.messages = {1, 2, 4, 8};
  pc.protocols = select_protocols({"0,3", "1,0"});
  pc.variants = {"basic"};
  pc.ways = {Way::Warm};
  pc.pairings = {parse_pairing("0-1")};
  const std::vector<TestMeta> meta = plan_tests(pc);
  REQUIRE(meta.size() == 8);

  pio::ModuleResult r;
  for (int i = 0; i < 8; ++i) {
    pio::TestResult t;
    t.index = i;
    pio::OpTimes op;
    // (0,3) gets kTimings; (1,0) twice as slow. t_max is what counts.
    op.t_max_us = kTimings[static_cast<size_t>(i % 4)].seconds * 1e6 * (i < 4 ? 1 : 2);
    op.t_min_us = op.t_max_us / 2;
    t.summary.op = op;
    r.tests.push_back(t);
  }
  pio::TestResult failed; // failed tests are left out
  failed.index = 0;
  failed.error = pio::ErrorRecord{0, "x", {}};
  r.tests.push_back(failed);

  const pio::Figure f = make_figure(r, meta, choice(4, 8), {"a note"});
  CHECK(f.name == "COMMTEST");
  REQUIRE(f.tables.size() == 2);
  const auto &stats = f.tables[0];
  REQUIRE(stats.rows.size() == 2);
  auto col = [&](const pio::FigureTable &t, const std::string &name) {
    return static_cast<size_t>(std::find(t.columns.begin(), t.columns.end(), name) -
                               t.columns.begin());
  };
  const auto &u = stats.rows[0];
  CHECK(std::get<std::string>(u[col(stats, "protocol")]) == "(0,3)");
  CHECK(std::get<double>(u[col(stats, "a [us]")]) == Approx(4));
  CHECK(std::get<double>(u[col(stats, "latency [us]")]) == Approx(4));
  CHECK(std::get<double>(u[col(stats, "swap [MiB/s]")]) == Approx(156.25));
  CHECK(std::get<double>(u[col(stats, "busy [MiB/s]")]) == Approx(78.125));
  CHECK(std::get<std::string>(u[col(stats, "idle [MiB/s]")]) == "-");
  CHECK(std::get<double>(u[col(stats, "model err max [%]")]) == Approx(4));
  const auto &o = stats.rows[1];
  CHECK(std::get<std::string>(o[col(stats, "protocol")]) == "(1,0)");
  CHECK(std::get<double>(o[col(stats, "a [us]")]) == Approx(8));
  CHECK(std::get<double>(o[col(stats, "latency [us]")]) == Approx(4));
  CHECK(std::get<double>(o[col(stats, "idle [MiB/s]")]) == Approx(78.125));
  // The graphs' data: T_N and 2 V / T_N per test.
  const auto &times = f.tables[1];
  REQUIRE(times.rows.size() == 8);
  CHECK(std::get<std::int64_t>(times.rows[3][col(times, "N")]) == 8);
  CHECK(std::get<std::int64_t>(times.rows[3][col(times, "message bytes")]) == 1024);
  CHECK(std::get<double>(times.rows[3][col(times, "T_N [us]")]) == Approx(128));
  CHECK(std::get<double>(times.rows[0][col(times, "MiB/s")]) == Approx(156.25));
  REQUIRE(f.values.size() == 2);
  CHECK(f.values[0].value == Approx(156.25));
  CHECK(f.values[1].value == Approx(4));
  CHECK(f.notes.front() == "a note");
}

TEST_CASE("the last-level cache from sysfs, else the CacheSize directive", "[commtest]") {
  const fs::path dir = fs::temp_directory_path() / ("commtest-sysfs-" + std::to_string(getpid()));
  write(dir / "cache/index0/level", "1");
  write(dir / "cache/index0/type", "Data");
  write(dir / "cache/index0/size", "48K");
  write(dir / "cache/index1/level", "1");
  write(dir / "cache/index1/type", "Instruction");
  write(dir / "cache/index1/size", "32K");
  write(dir / "cache/index2/level", "2");
  write(dir / "cache/index2/type", "Unified");
  write(dir / "cache/index2/size", "1024K");
  write(dir / "cache/index3/level", "3");
  write(dir / "cache/index3/type", "Unified");
  write(dir / "cache/index3/size", "32768K");
  CacheSize c = last_level_cache(dir.string(), true, 5 << 20);
  CHECK(c.bytes == 32 << 20);
  CHECK(c.source == dir.string() + "/cache");
  // Detection off: the directive.
  c = last_level_cache(dir.string(), false, 5 << 20);
  CHECK(c.bytes == 5 << 20);
  CHECK(c.source == "CacheSize directive");
  // Nothing in sysfs: the directive.
  c = last_level_cache((dir / "missing").string(), true, 7 << 20);
  CHECK(c.bytes == 7 << 20);
  CHECK(c.source == "CacheSize directive");
  fs::remove_all(dir);
  CHECK(parse_cache_size("512") == 512);
  CHECK(parse_cache_size("8M") == 8 << 20);
  CHECK(parse_cache_size("junk") == 0);
}

TEST_CASE("the cache sweep writes every byte of its buffer each time", "[commtest]") {
  CacheSweep s(1 << 20);
  CHECK(s.bytes() == 1 << 20);
  for (int round = 0; round < 2; ++round) {
    const std::uint64_t sum = s.sweep();
    const std::uint8_t v = s.value();
    CHECK(
        std::all_of(s.buffer().begin(), s.buffer().end(), [&](std::uint8_t b) { return b == v; }));
    CHECK(sum == static_cast<std::uint64_t>(v) * ((1 << 20) / 64));
  }
}

TEST_CASE("the protocol table follows the description's listings", "[commtest]") {
  const auto &all = protocols();
  REQUIRE(all.size() == 21);
  CHECK(all[0].id() == "0,0");
  CHECK(all[0].send == SendCall::Bsend);
  CHECK(all[6].send == SendCall::Sendrecv);
  CHECK(all[20].id() == "1,10");
  CHECK(all[20].send == SendCall::Ssend);
  CHECK(all[20].reply == SendCall::Ssend);
  int reorganisable = 0;
  for (const auto &p : all)
    reorganisable += p.reorganisable() ? 1 : 0;
  CHECK(reorganisable == 12); // (0,2)-(0,5), (0,8), (0,9) and the same ordered ones
  CHECK(select_protocols({"unordered"}).size() == 10);
  CHECK(select_protocols({"ordered", "0,1"}).size() == 12);
  CHECK_THROWS_AS(select_protocols({"2,0"}), pio::Error);
}

TEST_CASE("the plan: experiments, N that divide them, variants and pairings", "[commtest]") {
  CHECK(experiments()[0].volume() == 2 * 1024 * 1024);
  CHECK(experiments()[1].volume() == 128 * 1024);
  CHECK(experiments()[2].volume() == 8 * 1024);
  PlanChoice pc;
  pc.experiments = {"8KB", "2MB"};
  pc.messages = {1, 1024, 2048};
  pc.protocols = select_protocols({"0,0", "0,3"});
  pc.variants = {"basic", "reorganised"};
  pc.ways = {Way::Warm, Way::Repeated};
  pc.repeats = 3;
  pc.pairings = {parse_pairing("0-1"), parse_pairing("0-2+1-3")};
  const auto tests = plan_tests(pc);
  // Per pairing: 8KB takes N = 1, 1024; 2MB takes 1, 1024, 2048. (0,0) basic only, (0,3) both:
  // 3 variants x 2 ways x (2 + 3) N.
  CHECK(tests.size() == 2 * 3 * 2 * 5);
  CHECK(tests[0].pairing.name == "0-1");
  CHECK(tests.back().pairing.pairs == std::vector<std::vector<int>>{{0, 2}, {1, 3}});
  CHECK(tests.back().pairing.needs() == 4);
  const pio::TestSpec spec = test_spec(tests.back(), 1);
  CHECK(spec.groups.color == std::vector<int>{0, 1, 0, 1});
  CHECK(spec.comm->ops_per_unit == 3);
  CHECK(spec.comm->message_bytes == 2 * 1024 * 1024);
  CHECK(spec.comm->bytes_scale == 2.0);
  CHECK(spec.buffer_size == 1024);
  CHECK(spec.file == pio::FileUse::None);
  CHECK_THROWS_AS(parse_pairing("0-"), pio::Error);
  CHECK_THROWS_AS(parse_pairing("1-1"), pio::Error);
}
