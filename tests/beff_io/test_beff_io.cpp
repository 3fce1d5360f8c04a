// b_eff_io (seeds/000 §5.1, Table 2, §5.4): the averaging and weighting against hand-computed
// values, the file image of every pattern type byte by byte for 1, 2 and 4 ranks (expected
// layouts computed here from the definition, not by the module's code), the time-driven
// schedule, the shared-file-pointer fallback and verification of the data read back.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "beff_math.hpp"
#include "mpi_test.hpp"
#include "pio/stamp.hpp"

using pio::test::all_ranks;
using pio::test::on_root;
namespace beff = pio::beff;

namespace {

constexpr std::int64_t K = 1024, M = 1024 * 1024;

} // namespace

// ------------------------------------------------------------------------------------------
// Pure parts: Table 2, schedule, segment size, weights.

TEST_CASE("Table 2 has the paper's rows, U and sum of U", "[beff][math]") {
  const auto t = beff::table2(48 * M);
  REQUIRE(t.size() == 43);
  int sum = 0, per_type[5] = {0, 0, 0, 0, 0};
  for (const auto &p : t) {
    sum += p.U;
    per_type[p.type] += p.U;
    if (!p.fill)
      CHECK(p.L % p.l == 0);
  }
  CHECK(sum == 64);
  CHECK(per_type[0] == 22);
  CHECK(per_type[1] == 12);
  CHECK(per_type[2] == 10);
  CHECK(per_type[3] == 10);
  CHECK(per_type[4] == 10);
  CHECK(t[1].l == 48 * M);
  CHECK(t[2].L == 2 * M);
  CHECK(t[6].l == 32 * K + 8);
  CHECK(t[6].L == M + 256);
  CHECK(t[7].L == M + 8 * K);
  CHECK(t[33].fill);
  CHECK(t[42].fill);
  CHECK(t[29].l == K);
  CHECK(t[38].l == K);
  CHECK(t[38].type == 4);
}

TEST_CASE("M_PART, pattern budget and segment size follow §5.1 and §5.4", "[beff][math]") {
  CHECK(beff::mpart_for(6 * 1024 * M) == 48 * M);
  CHECK(beff::mpart_for(100 * M) == 2 * M);
  CHECK(beff::pattern_budget(900, 4, 64) == Approx(18.75));
  CHECK(beff::pattern_budget(60, 0, 64) == 0);
  CHECK(beff::round_up(1, M) == M);
  CHECK(beff::round_up(M, M) == M);
  CHECK(beff::segment_size({{M, 3}, {K + 8, 5}}) == 4 * M);
  CHECK(beff::segment_size({}) == M);
  // Time per chunk in units: 2/100 and 1/300, mean 0.0116667 -> 2 / 0.0116667 = 171.4 -> 172.
  CHECK(beff::segment_repetitions(2, {{100, 2}, {300, 1}}) == 172);
  CHECK(beff::segment_repetitions(2, {}) == 1);
  CHECK(beff::segment_repetitions(1, {{0, 2}}) == 1);
  // The running schedule: earlier overruns come off the next pattern, within [25 %, 100 %].
  CHECK(beff::catch_up_budget(2.0, 0.5) == Approx(1.5));
  CHECK(beff::catch_up_budget(2.0, 0.0) == Approx(2.0));
  CHECK(beff::catch_up_budget(2.0, -3.0) == Approx(2.0)); // time saved earlier is not spent
  CHECK(beff::catch_up_budget(2.0, 5.0) == Approx(0.5));
}

TEST_CASE("b_eff_io weights type 0 double and reads 50 %", "[beff][math]") {
  CHECK(beff::method_beff({{0, 100}, {1, 10}, {2, 40}, {3, 20}, {4, 30}}) == Approx(50.0));
  CHECK(beff::method_beff({{1, 10}, {2, 30}}) == Approx(20.0));
  CHECK(beff::method_beff({{0, 30}, {1, 0}}) == Approx(20.0));
  CHECK(beff::method_beff({}) == 0);
  CHECK(beff::partition_beff(40, 60, 100) == Approx(75.0));
  beff::PhaseKey k;
  REQUIRE(beff::parse_phase_label("rewrite 14 32K+8", k));
  CHECK(k.method == beff::Method::Rewrite);
  CHECK(k.pattern == 14);
  CHECK(k.chunk == "32K+8");
  REQUIRE(beff::parse_phase_label("write 3 sync", k));
  CHECK(k.sync);
  CHECK_FALSE(beff::parse_phase_label("pattern 3", k));
}

namespace {

nlohmann::json phase(const std::string &label, double mib, double t) {
  return {{"label", label}, {"units", 1}, {"bytes", mib * M}, {"aggregate_time_s", t}};
}

/// The three test records (write, rewrite, read) of one pattern type in the harness's shape:
/// one pattern, `mib` MiB per method, open and close 0.25 s each. Write 1.5 s plus its sync,
/// rewrite 2.0 s, read 0.5 s. with_method: give the access_method parameter (records without
/// it are recognised by their phase labels).
std::vector<nlohmann::json> fake_tests(int procs, int type, double mib, double write_sync,
                                       bool with_method = true) {
  const std::string n = std::to_string(type * 9);
  const std::vector<std::pair<std::string, nlohmann::json>> methods = {
      {"write", nlohmann::json::array({phase("write " + n + " 1M", mib, 1.5),
                                       phase("write " + n + " sync", 0, write_sync)})},
      {"rewrite", nlohmann::json::array({phase("rewrite " + n + " 1M", mib, 2.0),
                                         phase("rewrite " + n + " sync", 0, 0)})},
      {"read", nlohmann::json::array({phase("read " + n + " 1M", mib, 0.5)})}};
  std::vector<nlohmann::json> out;
  for (const auto &[method, phases] : methods) {
    nlohmann::json rep = {{"open_time_s", 0.25}, {"close_time_s", 0.25}, {"phases", phases}};
    nlohmann::json test = {
        {"label", "P" + std::to_string(procs) + " type " + std::to_string(type) + " " + method},
        {"params",
         {{"partition", std::to_string(procs)},
          {"pattern_type", std::to_string(type)},
          {"scheduled_time_s", "60"},
          {"all_patterns", "yes"},
          {"mpart_by_definition", "yes"},
          {"fixed_units", "0"}}},
        {"reps", {rep}},
        {"error", nullptr}};
    if (with_method)
      test["params"]["access_method"] = method;
    out.push_back(test);
  }
  return out;
}

/// A module record holding the tests of the given types, method-major as the module runs them.
nlohmann::json fake_module(int procs, double mib0, double mib, double type1_sync,
                           bool with_method = true) {
  nlohmann::json mod = {{"module", "beff_io"}, {"tests", nlohmann::json::array()}};
  std::vector<std::vector<nlohmann::json>> per_type;
  for (int t = 0; t < 5; ++t)
    per_type.push_back(
        fake_tests(procs, t, t == 0 ? mib0 : mib, t == 1 ? type1_sync : 0.0, with_method));
  for (int m = 0; m < 3; ++m)
    for (int t = 0; t < 5; ++t)
      mod["tests"].push_back(per_type[static_cast<size_t>(t)][static_cast<size_t>(m)]);
  return mod;
}

} // namespace

TEST_CASE("summary: bytes over open-to-close time per method, weights, maximum over partitions",
          "[beff][math]") {
  // Partition 2: type 0 moves 20 MiB per method, the others 10 MiB; type 1's write sync takes
  // 0.5 s. Each test's open and close add 0.5 s to its own method: write 1.5 + 0.5 (+ sync),
  // rewrite 2.0 + 0.5, read 0.5 + 0.5.
  nlohmann::json mod = fake_module(2, 20, 10, 0.5);
  // Partition 1 (records without access_method): 1 MiB per method -> write 1/2 = 0.5,
  // rewrite 1/2.5 = 0.4, read 1/1 = 1 MiB/s for every type.
  const nlohmann::json p1_mod = fake_module(1, 1, 1, 0.0, false);
  for (const auto &t : p1_mod["tests"])
    mod["tests"].push_back(t);
  // The module's own notes: partition 2 took 63 s of wall time (T = 60 s: +5 %).
  const nlohmann::json notes = {{"wall_time_s", {{"2", 63.0}}}};
  const auto fig = beff::summarize_results(mod, notes);
  const auto &p2 = fig["partitions"][1];
  REQUIRE(p2["procs"] == 2);
  CHECK(p2["schedule"]["actual_time_s"].get<double>() == Approx(63.0));
  CHECK(p2["schedule"]["deviation"].get<double>() == Approx(0.05));
  CHECK(p2["schedule"]["within_10_percent"] == true);
  // Partition 1 has no wall time: its I/O steps' time (5 x 5.5 s) is 54 % short of T.
  CHECK(fig["partitions"][0]["schedule"]["actual_time_s"].get<double>() == Approx(27.5));
  CHECK(fig["partitions"][0]["schedule"]["within_10_percent"] == false);
  // write: type 0 20/2 = 10, type 1 10/2.5 = 4, types 2-4 10/2 = 5 -> (2*10+4+15)/6 = 6.5
  CHECK(p2["methods"]["write"]["types"]["1"]["MiBps"].get<double>() == Approx(4.0));
  CHECK(p2["methods"]["write"]["types"]["0"]["time_s"].get<double>() == Approx(2.0));
  CHECK(p2["methods"]["write"]["b_eff_io_MiBps"].get<double>() == Approx(6.5));
  // rewrite: 20/2.5 = 8, then 4, 4, 4, 4 -> (16+16)/6
  CHECK(p2["methods"]["rewrite"]["types"]["0"]["MiBps"].get<double>() == Approx(8.0));
  CHECK(p2["methods"]["rewrite"]["b_eff_io_MiBps"].get<double>() == Approx(32.0 / 6));
  // read: 20/1 = 20, then 10, 10, 10, 10 -> (40+40)/6
  CHECK(p2["methods"]["read"]["b_eff_io_MiBps"].get<double>() == Approx(80.0 / 6));
  CHECK(p2["b_eff_io_MiBps"].get<double>() ==
        Approx(0.25 * 6.5 + 0.25 * 32.0 / 6 + 0.5 * 80.0 / 6));
  CHECK(p2["complete"] == true);
  // Measured time: every test's open + phases + close: 5 types x (2 + 2.5 + 1) + type 1's sync.
  CHECK(p2["measured_time_s"].get<double>() == Approx(5 * 5.5 + 0.5));
  // The table: per type and chunk, bytes over the pattern's own time (its sync included).
  bool seen = false;
  for (const auto &row : p2["table"])
    if (row["method"] == "write" && row["chunk"] == "1M") {
      CHECK(row["MiBps"]["1"].get<double>() == Approx(10.0 / 2.0));
      CHECK(row["MiBps"]["0"].get<double>() == Approx(20.0 / 1.5));
      seen = true;
    }
  CHECK(seen);
  const auto &p1 = fig["partitions"][0];
  CHECK(p1["methods"]["rewrite"]["b_eff_io_MiBps"].get<double>() == Approx(0.4));
  CHECK(p1["b_eff_io_MiBps"].get<double>() == Approx(0.25 * 0.5 + 0.25 * 0.4 + 0.5 * 1.0));
  CHECK(fig["system"]["procs"] == 2);
  CHECK(fig["system"]["b_eff_io_MiBps"].get<double>() ==
        Approx(p2["b_eff_io_MiBps"].get<double>()));
  CHECK(fig["rule"]["meets"] == false);
  CHECK(fig["rule"]["reasons"].dump().find("15 min") != std::string::npos);
  CHECK(fig["text"].get<std::string>().find("b_eff_io (system)") != std::string::npos);
}

TEST_CASE("summary: T of 15 min with every pattern meets the rule; a failed type does not",
          "[beff][math]") {
  nlohmann::json mod = fake_module(4, 10, 10, 0);
  for (auto &test : mod["tests"])
    test["params"]["scheduled_time_s"] = "900";
  CHECK(beff::summarize_results(mod, nullptr)["rule"]["meets"] == true);
  mod["tests"][8]["error"] = {{"rank", 0}, {"message", "boom"}}; // type 3's rewrite
  const auto fig = beff::summarize_results(mod, nullptr);
  CHECK(fig["rule"]["meets"] == false);
  CHECK(fig["partitions"][0]["complete"] == false);
  CHECK(fig["partitions"][0]["types_failed"] == nlohmann::json::array({3}));
}

// ------------------------------------------------------------------------------------------
// File images, computed from the definition (§5.1, Table 2, Fig. 1).

namespace {

/// A pattern as the test knows it from Table 2 (not from the module).
struct Row {
  int number;
  std::int64_t l, L;
  int U;
  bool fill = false;
};

constexpr std::int64_t kMPart = 64 * K; // set with MPart in the configs below
constexpr std::int64_t kFixed = 2;      // FixedUnits

/// The rows each layout run selects (Patterns): aligned, M_PART, small and +8 chunks, fill.
std::vector<Row> rows_of(int type) {
  switch (type) {
  case 0:
    return {{0, M, M, 0},
            {1, kMPart, kMPart, 4},
            {5, K, M, 2},
            {7, K + 8, M + 8 * K, 2},
            {8, M + 8, M + 8, 2}};
  case 1:
    return {{9, M, M, 0}, {10, kMPart, kMPart, 4}, {13, K, K, 1}, {15, K + 8, K + 8, 1}};
  case 2:
    return {{17, M, M, 0}, {18, kMPart, kMPart, 2}, {21, K, K, 1}, {23, K + 8, K + 8, 1}};
  case 3:
    return {{25, M, M, 0},
            {26, kMPart, kMPart, 2},
            {29, K, K, 1},
            {31, K + 8, K + 8, 1},
            {33, 0, 0, 0, true}};
  default:
    return {{34, M, M, 0},
            {35, kMPart, kMPart, 2},
            {38, K, K, 1},
            {40, K + 8, K + 8, 1},
            {42, 0, 0, 0, true}};
  }
}

std::string patterns_directive(int type) {
  std::string s;
  for (const auto &r : rows_of(type))
    s += " " + std::to_string(r.number);
  return s;
}

/// Expected owner of every byte: image[path suffix] -> vector of owner ranks (-1 = hole).
/// Every unit is rewritten (FixedUnits), so every byte carries generation 1.
std::map<std::string, std::vector<int>> expected_owners(int type, int n) {
  std::map<std::string, std::vector<int>> files;
  auto put = [](std::vector<int> &img, std::int64_t off, std::int64_t len, int r) {
    if (static_cast<std::int64_t>(img.size()) < off + len)
      img.resize(static_cast<size_t>(off + len), -1);
    for (std::int64_t i = 0; i < len; ++i)
      img[static_cast<size_t>(off + i)] = r;
  };
  const auto rows = rows_of(type);
  if (type <= 1) {
    // Strided: in each call every rank's chunks of l bytes interleave in rank order; type 0
    // scatters L bytes (L/l chunks) per call, type 1 one chunk per call. Each pattern starts
    // where the previous one ended.
    auto &img = files[""];
    std::int64_t base = 0;
    for (const auto &row : rows) {
      const std::int64_t units = row.U == 0 ? 1 : kFixed;
      const std::int64_t per_call = type == 0 ? row.L / row.l : 1;
      for (std::int64_t c = 0; c < units * per_call; ++c)
        for (int r = 0; r < n; ++r)
          put(img, base + (c * n + r) * row.l, row.l, r);
      base += units * per_call * n * row.l;
    }
  } else if (type == 2) {
    for (int r = 0; r < n; ++r) {
      auto &img = files["." + std::to_string(r)];
      std::int64_t pos = 0;
      for (const auto &row : rows) {
        const std::int64_t units = row.U == 0 ? 1 : kFixed;
        put(img, pos, units * row.l, r);
        pos += units * row.l;
      }
    }
  } else {
    // Segmented: LSEG = sum of l * repetitions rounded up to 1 MB (§5.4); each rank fills its
    // own segment completely (the last pattern fills it up).
    std::int64_t used = 0;
    for (const auto &row : rows)
      if (!row.fill)
        used += (row.U == 0 ? 1 : kFixed) * row.l;
    const std::int64_t lseg = (used + M - 1) / M * M;
    auto &img = files[""];
    for (int r = 0; r < n; ++r)
      put(img, r * lseg, lseg, r);
  }
  return files;
}

std::string layout_config(const pio::test::TempDir &dir, int type, const std::string &extra) {
  return "TestFile " + dir.file("beff") + "\nVerify on\n<ap_module>\nModuleName beff_io\n" +
         "ScheduledTime 3\nPatternTypes " + std::to_string(type) + "\nPatterns" +
         patterns_directive(type) + "\nFixedUnits " + std::to_string(kFixed) + "\nMPart 64K\n" +
         extra + "</ap_module>\n";
}

/// Checks every byte of the files the run left behind against the definition.
bool image_matches(const pio::test::TempDir &dir, int type, int n) {
  bool ok = true;
  // Each pattern type has its own file: TestFile.type<k> (type 2: TestFile.type2.<rank>).
  for (const auto &[rank_suffix, owners] : expected_owners(type, n)) {
    const std::string suffix = ".type" + std::to_string(type) + rank_suffix;
    const auto bytes = pio::test::read_bytes(dir.file("beff") + suffix);
    CHECK(bytes.size() == owners.size());
    ok = ok && bytes.size() == owners.size();
    std::int64_t bad = -1;
    for (size_t i = 0; i < owners.size() && i < bytes.size() && bad < 0; ++i) {
      const int r = owners[i];
      if (r < 0 || bytes[i] != pio::stamp_byte(r, static_cast<std::int64_t>(i), 1))
        bad = static_cast<std::int64_t>(i);
    }
    INFO("type " << type << " file beff" << suffix << " first wrong byte at " << bad);
    CHECK(bad == -1);
    ok = ok && bad == -1;
  }
  return ok;
}

} // namespace

TEST_CASE("every pattern type lays out its file as §5.1 defines, verified on read",
          "[beff][layout]") {
  const int n = pio::test::size();
  for (int type = 0; type < 5; ++type) {
    DYNAMIC_SECTION("pattern type " << type) {
      pio::test::TempDir dir;
      const auto ran = pio::test::run_config(dir, "layout", layout_config(dir, type, ""), true);
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const auto &mod = ran.results["modules"][0];
        // One test per access method, in the paper's order, each opening the type's own file.
        REQUIRE(mod["tests"].size() == 3);
        std::map<std::string, std::int64_t> units;
        for (int m = 0; m < 3; ++m) {
          const auto &test = mod["tests"][m];
          const std::string method = beff::method_name(static_cast<beff::Method>(m));
          CHECK(test["label"] ==
                "P" + std::to_string(n) + " type " + std::to_string(type) + " " + method);
          CHECK(test["params"]["access_method"] == method);
          CHECK(test["params"]["pattern_type"] == std::to_string(type));
          CHECK(test["file_use"] == (type == 2 ? "file-per-process" : "shared"));
          CHECK(test["file"] ==
                dir.file("beff") + ".type" + std::to_string(type) + (type == 2 ? ".0" : ""));
          CHECK(test["error"].is_null());
          for (const auto &ph : test["reps"][0]["phases"]) {
            beff::PhaseKey k;
            REQUIRE(beff::parse_phase_label(ph["label"], k));
            CHECK(k.method == static_cast<beff::Method>(m));
            if (!k.sync)
              units[method + std::to_string(k.pattern)] = ph["units"];
          }
        }
        CHECK(mod["figure"]["rule"]["meets"] == false);
        // Rewrite and read repeat the write's units exactly (FixedUnits: count-driven).
        for (const auto &row : rows_of(type)) {
          const auto w = units["write" + std::to_string(row.number)];
          CHECK(w == (row.U == 0 ? 1 : kFixed));
          CHECK(units["rewrite" + std::to_string(row.number)] == w);
          CHECK(units["read" + std::to_string(row.number)] == w);
        }
        return image_matches(dir, type, n);
      }));
    }
  }
}

TEST_CASE("type 1 falls back to individual file pointers and says so", "[beff][fallback]") {
  pio::test::TempDir dir;
  const auto ran =
      pio::test::run_config(dir, "fallback", layout_config(dir, 1, "SharedPointers off\n"), true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mod = ran.results["modules"][0];
    const std::string positioning = mod["tests"][0]["params"]["positioning"];
    CHECK(positioning.find("individual file pointers") != std::string::npos);
    CHECK(mod["figure"]["text"].get<std::string>().find("fallback") != std::string::npos);
    // The same file image as with shared pointers: rank order within each call.
    return image_matches(dir, 1, pio::test::size());
  }));
}

TEST_CASE("time-driven schedule: every loop runs T/3*U/sumU, less what earlier ones overran",
          "[beff][schedule]") {
  // ReadRewrite count: rewrite and read repeat exactly the write's units.
  // ReadRewrite time (the default): they are time-driven like the write.
  for (const std::string mode : {"count", "time"}) {
    DYNAMIC_SECTION("ReadRewrite " << mode) {
      pio::test::TempDir dir;
      // Types 0 and 2 with patterns 3 (U 4), 4 (U 2), 19 (U 2), 20 (U 1): sum U = 9, T = 3 s.
      const std::string conf =
          "TestFile " + dir.file("sched") +
          "\n<ap_module>\nModuleName beff_io\nScheduledTime 3\nPatternTypes 0 2\n"
          "Patterns 3 4 19 20\nMPart 2M\n" +
          "ReadRewrite " + mode + "\n</ap_module>\n";
      const auto ran = pio::test::run_config(dir, "sched", conf);
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        bool ok = true;
        const std::map<int, int> U = {{3, 4}, {4, 2}, {19, 2}, {20, 1}};
        double timed = 0;
        int loops = 0;
        std::map<int, std::int64_t> written; // pattern -> units of its write (an earlier test)
        for (const auto &test : ran.results["modules"][0]["tests"]) {
          CHECK(test["params"]["sum_U"] == "9");
          for (const auto &ph : test["reps"][0]["phases"]) {
            beff::PhaseKey k;
            REQUIRE(beff::parse_phase_label(ph["label"], k));
            const double t = ph["aggregate_time_s"];
            const double elapsed = ph["elapsed_time_s"];
            timed += t;
            if (k.sync)
              continue;
            ++loops;
            const std::int64_t units = ph["units"];
            const double budget = ph["time_budget_s"];
            CHECK(units >= 1);
            CHECK(t <= elapsed);
            ok = ok && t <= elapsed;
            if (k.method == beff::Method::Write)
              written[k.pattern] = units;
            if (k.method != beff::Method::Write && mode == "count") {
              REQUIRE(written.count(k.pattern));
              CHECK(units == written[k.pattern]);
              CHECK(budget == 0);
              ok = ok && units == written[k.pattern] && budget == 0;
              continue;
            }
            // Time-driven: the root stops a loop only once its budget is spent (no MaxFileSize
            // cap here); the budget is T/3*U/sumU less what the partition is behind its
            // schedule, at least a quarter of it.
            const double nominal = 3.0 / 3.0 * U.at(k.pattern) / 9.0;
            INFO(ph["label"] << " ran " << elapsed << " s of " << budget << " (" << nominal
                             << " scheduled)");
            CHECK(budget <= nominal + 1e-9);
            CHECK(budget >= 0.25 * nominal - 1e-9);
            CHECK(elapsed >= budget);
            ok = ok && elapsed >= budget && budget <= nominal + 1e-9 &&
                 budget >= 0.25 * nominal - 1e-9;
          }
        }
        CHECK(loops == 12); // 4 patterns x 3 access methods
        const auto &fig = ran.results["modules"][0]["figure"];
        const auto &part = fig["partitions"][0];
        CHECK(fig["scheduled_time_s"].get<double>() == Approx(3.0));
        CHECK(part["measured_time_s"].get<double>() == Approx(timed).margin(1.0));
        CHECK(part["schedule"]["actual_time_s"].get<double>() >=
              part["io_elapsed_time_s"].get<double>());
        CHECK(part["complete"] == false); // only types 0 and 2
        CHECK(fig["rule"]["meets"] == false);
        // The files the write kept for the rewrite and read are gone after the run.
        for (const char *suffix : {".type0", ".type2.0"}) {
          INFO(suffix);
          CHECK_FALSE(pio::test::exists(dir.file("sched") + suffix));
          ok = ok && !pio::test::exists(dir.file("sched") + suffix);
        }
        return ok && loops == 12;
      }));
    }
  }
}

TEST_CASE("a rewrite and read that outlast the write cycle through what it wrote, verified",
          "[beff][schedule]") {
  pio::test::TempDir dir;
  // MaxFileSize ends each write loop after one unit, which puts the partition ahead of its
  // schedule; rewrite and read keep their scheduled time (T = 8 s, sum U = 4: 1.33 s for
  // pattern 4, 0.67 s each for 13 and 21), so they go round the written unit again. Verify
  // checks every byte read in every round. How many rounds fit depends on the machine's load,
  // so the test asks for at least one loop that went round, and a correct count for all.
  const std::string conf =
      "TestFile " + dir.file("wrap") +
      "\nVerify on\n<ap_module>\nModuleName beff_io\nScheduledTime 8\n"
      "PatternTypes 0 1 2\nPatterns 4 13 21\nMaxFileSize 1K\nReadRewrite time\n"
      "</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "wrap", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mod = ran.results["modules"][0];
    std::map<std::string, std::int64_t> units; // "<method> <pattern>" -> units
    for (const auto &test : mod["tests"]) {
      CHECK(test["error"].is_null());
      for (const auto &ph : test["reps"][0]["phases"]) {
        beff::PhaseKey k;
        REQUIRE(beff::parse_phase_label(ph["label"], k));
        if (!k.sync)
          units[std::string(beff::method_name(k.method)) + " " + std::to_string(k.pattern)] =
              ph["units"];
      }
    }
    int went_round = 0;
    for (int p : {4, 13, 21}) {
      const auto n = std::to_string(p);
      INFO("pattern " << p);
      CHECK(units["write " + n] == 1);
      went_round += (units["rewrite " + n] > 1) + (units["read " + n] > 1);
    }
    CHECK(went_round > 0);
    CHECK(mod["figure"]["notes"]["capped"].size() == 3);
    // The figure says how often each went round: units over the write's one unit.
    for (const auto &e : mod["figure"]["partitions"][0]["patterns"]) {
      const auto n = std::to_string(e["pattern"].get<int>());
      CHECK(e["read"]["rounds"].get<double>() == Approx(static_cast<double>(units["read " + n])));
      CHECK(e["rewrite"]["rounds"].get<double>() ==
            Approx(static_cast<double>(units["rewrite " + n])));
    }
    return went_round > 0;
  }));
}

TEST_CASE("partitions run on the first ranks, each in the paper's order; the system value is "
          "their maximum",
          "[beff][partitions]") {
  const int n = pio::test::size();
  pio::test::TempDir dir;
  const std::string conf = "TestFile " + dir.file("parts") +
                           "\n<ap_module>\nModuleName beff_io\nScheduledTime 1\nPartitions 1 " +
                           std::to_string(n) +
                           "\nPatternTypes 0 2\nPatterns 5 21\nFixedUnits 4\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "parts", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mod = ran.results["modules"][0];
    const auto &fig = mod["figure"];
    // §5.1: per partition, every type's write, then every type's rewrite, then every read.
    std::vector<std::string> labels;
    for (const auto &test : mod["tests"])
      labels.push_back(test["label"]);
    std::vector<std::string> expected;
    for (int procs : n > 1 ? std::vector<int>{1, n} : std::vector<int>{1})
      for (const char *method : {"write", "rewrite", "read"})
        for (int type : {0, 2})
          expected.push_back("P" + std::to_string(procs) + " type " + std::to_string(type) + " " +
                             method);
    CHECK(labels == expected);
    // Each test is one access method of one type, timed from its own open to its own close.
    for (const auto &test : mod["tests"]) {
      const auto &rep = test["reps"][0];
      double t = rep["open_time_s"].get<double>() + rep["close_time_s"].get<double>();
      double bytes = 0;
      for (const auto &ph : rep["phases"]) {
        t += ph["aggregate_time_s"].get<double>();
        bytes += ph["bytes"].get<double>();
      }
      const int procs = test["procs"];
      const std::string method = test["params"]["access_method"];
      const std::string type = test["params"]["pattern_type"];
      // Pattern 5: 4 units of 1 MB per rank; pattern 21: 4 chunks of 1 kB per rank.
      CHECK(bytes == Approx(4.0 * procs * (type == "0" ? M : K)));
      for (const auto &p : fig["partitions"])
        if (p["procs"] == procs) {
          const auto &sum = p["methods"][method]["types"][type];
          CHECK(sum["time_s"].get<double>() == Approx(t));
          CHECK(sum["bytes"].get<double>() == Approx(bytes));
        }
    }
    // The read released each file; none is left behind.
    CHECK_FALSE(pio::test::exists(dir.file("parts") + ".type0"));
    CHECK_FALSE(pio::test::exists(dir.file("parts") + ".type2.0"));
    double best = 0;
    int best_procs = 0;
    for (const auto &p : fig["partitions"])
      if (p["b_eff_io_MiBps"].get<double>() > best) {
        best = p["b_eff_io_MiBps"];
        best_procs = p["procs"];
      }
    CHECK(fig["system"]["procs"] == best_procs);
    CHECK(fig["system"]["b_eff_io_MiBps"].get<double>() == Approx(best));
    return fig["partitions"].size() == (n > 1 ? 2u : 1u) && labels == expected;
  }));
}
