// b_eff_io run by the harness (b_eff_io paper §5.1, Table 2, §5.4): the file image of every
// pattern type byte by byte for 1, 2 and 4 ranks (expected layouts computed here from the
// definition, not by the module's code), the per-method test order, the time-driven schedule
// in both ReadRewrite modes, cycling, the shared-file-pointer fallback and verification of the
// data read back; the figure as the JSON results render it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pio/stamp.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

constexpr std::int64_t K = 1024, M = 1024 * 1024;
const char *const kMethods[] = {"write", "rewrite", "read"};

/// A phase label as the module writes it: "<method> <pattern> <chunk>" or "<method> <pattern>
/// sync" (the tests read labels; the module never does).
struct PhaseKey {
  std::string method;
  int pattern = -1;
  bool sync = false;
};

/// Whether a time-driven loop's record says it stopped by its own rule (b_eff_io 2.1's per-unit
/// check, docs/reference/beff_io.md): at its unit cap, or when one more unit at the pace so far
/// would have overrun its budget (elapsed (u + 1) / u > budget after u units). The machine's speed
/// decides how many units that is; the harness's record must agree with the rule.
bool stopped_by_schedule(const nlohmann::json &ph) {
  const auto units = ph["units"].get<std::int64_t>();
  const auto limit = ph["units_limit"].get<std::int64_t>();
  const double elapsed = ph["elapsed_time_s"], budget = ph["time_budget_s"];
  return units >= 1 &&
         ((limit > 0 && units >= limit) ||
          elapsed * static_cast<double>(units + 1) / static_cast<double>(units) > budget);
}

/// Parses a phase label; pattern stays -1 if it is not one.
PhaseKey parse_label(const std::string &label) {
  PhaseKey k;
  std::istringstream in(label);
  std::string tag;
  if (!(in >> k.method >> k.pattern >> tag))
    k.pattern = -1;
  k.sync = tag == "sync";
  return k;
}

/// A value of the figure by name (NaN-free: fails the test when missing).
double fig_value(const nlohmann::json &fig, const std::string &name) {
  for (const auto &v : fig["values"])
    if (v["name"] == name)
      return v["value"].get<double>();
  FAIL("figure has no value " << name);
  return 0;
}

/// The rows of a figure table as column -> cell.
std::vector<std::map<std::string, nlohmann::json>> fig_rows(const nlohmann::json &fig,
                                                            const std::string &name) {
  std::vector<std::map<std::string, nlohmann::json>> out;
  for (const auto &t : fig["tables"])
    if (t["name"] == name)
      for (const auto &row : t["rows"]) {
        std::map<std::string, nlohmann::json> r;
        for (size_t i = 0; i < t["columns"].size(); ++i)
          r[t["columns"][i].get<std::string>()] = row[i];
        out.push_back(r);
      }
  return out;
}

/// Notes of the figure containing `part`.
int notes_with(const nlohmann::json &fig, const std::string &part) {
  int n = 0;
  for (const auto &note : fig["notes"])
    n += note.get<std::string>().find(part) != std::string::npos;
  return n;
}

} // namespace

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
         "Definition paper\nScheduledTime 3\nPatternTypes " + std::to_string(type) + "\nPatterns" +
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

// 4 ranks: each type interleaves or segments the file over P ranks; ranks 2 and 3 sit where 2 ranks
// never reach.
TEST_CASE("every pattern type lays out its file as §5.1 defines, verified on read",
          "[beff][layout][4ranks]") {
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
          const std::string method = kMethods[m];
          CHECK(test["label"] ==
                "P" + std::to_string(n) + " type " + std::to_string(type) + " " + method);
          CHECK(test["params"]["access_method"] == method);
          CHECK(test["params"]["pattern_type"] == std::to_string(type));
          CHECK(test["file_use"] == (type == 2 ? "file-per-process" : "shared"));
          CHECK(test["file"] ==
                dir.file("beff") + ".type" + std::to_string(type) + (type == 2 ? ".0" : ""));
          CHECK(test["error"].is_null());
          for (const auto &ph : test["reps"][0]["phases"]) {
            const auto k = parse_label(ph["label"]);
            REQUIRE(k.pattern >= 0);
            CHECK(k.method == method);
            if (!k.sync)
              units[method + std::to_string(k.pattern)] = ph["units"];
          }
        }
        CHECK(mod["figure"]["name"] == "b_eff_io");
        CHECK(fig_value(mod["figure"], "meets_rule") == 0);
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

TEST_CASE("pattern types 2 and 3 run through Interface posix (individual file pointers as lseek "
          "and write), their files as §5.1 defines, verified on read",
          "[beff][layout][posix]") {
  const int n = pio::test::size();
  for (int type : {2, 3}) {
    DYNAMIC_SECTION("pattern type " << type) {
      pio::test::TempDir dir;
      const auto ran =
          pio::test::run_config(dir, "posix", layout_config(dir, type, "Interface posix\n"), true);
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const auto &mod = ran.results["modules"][0];
        CHECK(mod["interface"] == "posix");
        REQUIRE(mod["tests"].size() == 3);
        for (const auto &test : mod["tests"])
          CHECK(test["error"].is_null());
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
    CHECK(notes_with(mod["figure"], "pattern type 1 positioning: individual file pointers "
                                    "(fallback forced by SharedPointers off)") == 1);
    // The same file image as with shared pointers: rank order within each call.
    return image_matches(dir, 1, pio::test::size());
  }));
}

TEST_CASE("the write loops' own sync stores their bytes: no write_cache, nothing left dirty",
          "[beff][cache]") {
  // /var/tmp: a disk file system, where a write loop ends in the page cache and its sync phase
  // (timed, §5.1) stores it. The page cache is measured after the sync, not between.
  pio::test::TempDir dir("/var/tmp");
  const std::string conf = "TestFile " + dir.file("f") +
                           "\n<ap_module>\nModuleName beff_io\nScheduledTime 1\n"
                           "Patterns 3 11 19\nPatternTypes 0 1 2\nMPart 1M\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "wsync", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    int writes = 0;
    for (const auto &t : ran.results["modules"][0]["tests"]) {
      for (const auto &f : t["flags"])
        CHECK(f["flag"] != "write_cache");
      for (const auto &r : t["reps"])
        for (const auto &p : r["phases"])
          if (p["cache"].is_object() && p["cache"]["access"] == "write") {
            ++writes;
            if (p["cache"]["probe"] == "cachestat")
              CHECK(p["cache"]["dirty_bytes"].get<double>() <
                    0.5 * p["cache"]["range_bytes"].get<double>());
          }
    }
    CHECK(writes >= 3); // the write tests of types 0, 1 and 2, one check each
    return writes >= 3;
  }));
}

TEST_CASE("time-driven schedule: every loop runs T/3*U/sumU, less what earlier ones overran",
          "[beff][schedule]") {
  // ReadRewrite count: rewrite and read repeat exactly the write's units.
  // ReadRewrite time (the default): they are time-driven like the write.
  for (const std::string mode : {"count", "time"}) {
    DYNAMIC_SECTION("ReadRewrite " << mode) {
      pio::test::TempDir dir;
      // Types 0 and 2 with patterns 3 (U 4), 4 (U 2), 19 (U 2), 20 (U 1): sum U = 9, T = 1 s
      // (each loop's budget is T/3*U/sumU: 37-148 ms; the rule holds for any T).
      const std::string conf =
          "TestFile " + dir.file("sched") +
          "\n<ap_module>\nModuleName beff_io\nDefinition paper\nScheduledTime 1\nPatternTypes 0 2\n"
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
          // measured_time counts each test's open and close too.
          timed += test["reps"][0]["open_time_s"].get<double>() +
                   test["reps"][0]["close_time_s"].get<double>();
          for (const auto &ph : test["reps"][0]["phases"]) {
            const auto k = parse_label(ph["label"]);
            REQUIRE(k.pattern >= 0);
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
            if (k.method == "write")
              written[k.pattern] = units;
            if (k.method != "write" && mode == "count") {
              REQUIRE(written.count(k.pattern));
              CHECK(units == written[k.pattern]);
              CHECK(budget == 0);
              ok = ok && units == written[k.pattern] && budget == 0;
              continue;
            }
            // Time-driven: the root stops a loop only once its budget is spent (no MaxFileSize
            // cap here); the budget is T/3*U/sumU less what the partition is behind its
            // schedule, at least a quarter of it.
            const double nominal = 1.0 / 3.0 * U.at(k.pattern) / 9.0;
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
        const std::string P = "P" + std::to_string(pio::test::size()) + " ";
        CHECK(fig_value(fig, "scheduled_time") == Approx(1.0));
        CHECK(fig_value(fig, P + "scheduled_time") == Approx(1.0));
        CHECK(fig_value(fig, P + "measured_time") == Approx(timed).margin(1e-3));
        CHECK(fig_value(fig, P + "actual_time") >= fig_value(fig, P + "io_elapsed_time"));
        CHECK(fig_value(fig, P + "complete") == 0); // only types 0 and 2
        CHECK(fig_value(fig, "meets_rule") == 0);
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
  // MaxFileSize (one call of each pattern on all ranks: 1 MB + 1 kB + 1 kB each) ends each
  // write loop after one unit, which puts the partition ahead of its
  // schedule; rewrite and read keep their scheduled time (T = 3 s, sum U = 4: 0.5 s for
  // pattern 4, 0.25 s each for 13 and 21), so they go round the written unit again. Verify
  // checks every byte read in every round. How many rounds fit depends on the machine's load,
  // so the test asks, by the results' own record, that every loop went round or stopped by
  // its schedule after the one unit, and a correct count for all.
  const std::string conf =
      "TestFile " + dir.file("wrap") +
      "\nVerify on\n<ap_module>\nModuleName beff_io\nDefinition paper\nScheduledTime 3\n"
      "PatternTypes 0 1 2\nPatterns 4 13 21\nMaxFileSize " +
      std::to_string(pio::test::size() * (M + 2 * K)) + "\nReadRewrite time\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "wrap", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mod = ran.results["modules"][0];
    std::map<std::string, std::int64_t> units; // "<method> <pattern>" -> units
    std::map<std::string, bool> spent;         // ... -> it stopped by its schedule
    for (const auto &test : mod["tests"]) {
      CHECK(test["error"].is_null());
      for (const auto &ph : test["reps"][0]["phases"]) {
        const auto k = parse_label(ph["label"]);
        REQUIRE(k.pattern >= 0);
        if (!k.sync) {
          const auto key = k.method + " " + std::to_string(k.pattern);
          units[key] = ph["units"];
          spent[key] = stopped_by_schedule(ph);
        }
      }
    }
    bool kept = true;
    for (int p : {4, 13, 21}) {
      const auto n = std::to_string(p);
      INFO("pattern " << p);
      CHECK(units["write " + n] == 1);
      for (const std::string m : {"rewrite ", "read "}) {
        INFO(m << "units " << units[m + n] << ", time spent " << spent[m + n]);
        CHECK((units[m + n] > 1 || spent[m + n]));
        kept = kept && (units[m + n] > 1 || spent[m + n]);
      }
    }
    CHECK(notes_with(mod["figure"], "MaxFileSize capped: write ") == 3);
    // The figure says how often each went round: units over the write's one unit.
    int rows = 0;
    for (const auto &e : fig_rows(mod["figure"], "patterns")) {
      const std::string method = e.at("method");
      const std::string key = method + " " + std::to_string(e.at("pattern").get<int>());
      CHECK(e.at("units").get<std::int64_t>() == units[key]);
      CHECK(e.at("rounds").get<double>() == Approx(static_cast<double>(units[key])));
      ++rows;
    }
    CHECK(rows == 9);
    return kept;
  }));
}

TEST_CASE("partitions run on the first ranks, each in the paper's order; the system value is "
          "their maximum",
          "[beff][partitions]") {
  const int n = pio::test::size();
  pio::test::TempDir dir;
  const std::string conf =
      "TestFile " + dir.file("parts") +
      "\n<ap_module>\nModuleName beff_io\nDefinition paper\nScheduledTime 1\nPartitions 1 " +
      std::to_string(n) + "\nPatternTypes 0 2\nPatterns 5 21\nFixedUnits 4\n</ap_module>\n";
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
      const int type = std::stoi(test["params"]["pattern_type"].get<std::string>());
      // Pattern 5: 4 units of 1 MB per rank; pattern 21: 4 chunks of 1 kB per rank.
      CHECK(bytes == Approx(4.0 * procs * (type == 0 ? M : K)));
      int found = 0;
      for (const auto &row : fig_rows(fig, "types"))
        if (row.at("partition") == procs && row.at("method") == method && row.at("type") == type) {
          CHECK(row.at("time_s").get<double>() == Approx(t));
          CHECK(row.at("bytes").get<double>() == Approx(bytes));
          ++found;
        }
      CHECK(found == 1);
    }
    // The read released each file; none is left behind.
    CHECK_FALSE(pio::test::exists(dir.file("parts") + ".type0"));
    CHECK_FALSE(pio::test::exists(dir.file("parts") + ".type2.0"));
    double best = 0;
    int best_procs = 0;
    for (int procs : n > 1 ? std::vector<int>{1, n} : std::vector<int>{1}) {
      const double v = fig_value(fig, "P" + std::to_string(procs) + " b_eff_io");
      CHECK(v == Approx(0.25 * fig_value(fig, "P" + std::to_string(procs) + " b_eff_io(write)") +
                        0.25 * fig_value(fig, "P" + std::to_string(procs) + " b_eff_io(rewrite)") +
                        0.5 * fig_value(fig, "P" + std::to_string(procs) + " b_eff_io(read)")));
      if (v > best) {
        best = v;
        best_procs = procs;
      }
    }
    CHECK(fig["values"][0]["name"] == "b_eff_io");
    CHECK(fig_value(fig, "processes") == best_procs);
    CHECK(fig_value(fig, "b_eff_io") == Approx(best));
    return labels == expected;
  }));
}

TEST_CASE("directive limits are declared: a value outside them is an error naming file:line",
          "[beff][config]") {
  const int n = pio::test::size();
  // name, bad line, what the error says
  const std::vector<std::vector<std::string>> cases = {
      {"types", "PatternTypes 0 5", "PatternTypes"},
      {"patterns", "Patterns 43", "Patterns"},
      {"fixed", "FixedUnits -1", "FixedUnits"},
      {"parts", "Partitions " + std::to_string(n + 1), "Partitions"}};
  for (const auto &c : cases) {
    DYNAMIC_SECTION(c[1]) {
      pio::test::TempDir dir;
      const std::string conf = "TestFile " + dir.file("bad") +
                               "\n<ap_module>\nModuleName beff_io\nScheduledTime 1\n" + c[1] +
                               "\n</ap_module>\n";
      const auto ran = pio::test::run_config(dir, c[0], conf);
      INFO(ran.err << ran.out);
      REQUIRE(all_ranks(ran.exit_code != 0));
      REQUIRE(on_root([&] {
        const std::string text = ran.err + ran.out + ran.results.dump();
        CHECK(text.find(c[2]) != std::string::npos);
        // The harness's limits name the config line (line 5 of the file written above).
        if (c[0] != "parts")
          CHECK(text.find(c[0] + ".conf:5") != std::string::npos);
        return text.find(c[2]) != std::string::npos;
      }));
    }
  }
}

TEST_CASE("repetitions are refused at their line: the schedule runs once", "[beff][config]") {
  // name, the config's lines before the block, the block's line, the line the error names
  const std::vector<std::vector<std::string>> cases = {
      {"reps", "", "ModuleReps 2", "reps.conf:6: ModuleReps 2"},
      {"warm", "WarmUpReps 1\n", "", "warm.conf:2: WarmUpReps 1"}};
  for (const auto &c : cases) {
    DYNAMIC_SECTION(c[0]) {
      pio::test::TempDir dir;
      const std::string conf = "TestFile " + dir.file("bad") + "\n" + c[1] +
                               "<ap_module>\nModuleName beff_io\nScheduledTime 1\nVerify on\n" +
                               c[2] + "\n</ap_module>\n";
      const auto ran = pio::test::run_config(dir, c[0], conf);
      REQUIRE(all_ranks(ran.exit_code == 2));
      REQUIRE(on_root([&] {
        CHECK_THAT(ran.err, Catch::Contains(c[3]) && Catch::Contains("runs its tests once") &&
                                Catch::Contains("Rounds"));
        return true;
      }));
      REQUIRE(all_ranks(!pio::test::exists(dir.file("bad"))));
    }
  }
}

TEST_CASE("Definition original: type 0 alone is rewritten, rewrite and read repeat the write's "
          "calls, segments follow min(r0 L/l, 10 r1, r2), the figure is the geometric mean",
          "[beff][original]") {
  const int n = pio::test::size();
  pio::test::TempDir dir;
  // The 1 MB patterns of each type plus the fill patterns; T = 2 s, default definition.
  const std::string conf = "TestFile " + dir.file("orig") +
                           "\nVerify on\n<ap_module>\nModuleName beff_io\nScheduledTime 2\n"
                           "Patterns 3 11 19 27 33 36 42\nMPart 2M\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "orig", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mod = ran.results["modules"][0];
    const std::string P = "P" + std::to_string(n);
    std::vector<std::string> labels;
    std::map<std::string, std::int64_t> units; // "<method> <pattern>" -> units
    for (const auto &test : mod["tests"]) {
      labels.push_back(test["label"]);
      CHECK(test["error"].is_null());
      CHECK(test["params"]["definition"] == "original");
      // 2 s / 1 partition * U / (12 write + 4 rewrite + 12 read time units)
      CHECK(test["params"]["schedule_units"] == "28");
      for (const auto &ph : test["reps"][0]["phases"]) {
        const auto k = parse_label(ph["label"]);
        REQUIRE(k.pattern >= 0);
        if (!k.sync)
          units[k.method + " " + std::to_string(k.pattern)] = ph["units"];
      }
    }
    const std::vector<std::string> expected = {
        P + " type 0 write", P + " type 1 write",   P + " type 2 write", P + " type 3 write",
        P + " type 4 write", P + " type 0 rewrite", P + " type 0 read",  P + " type 1 read",
        P + " type 2 read",  P + " type 3 read",    P + " type 4 read"};
    CHECK(labels == expected);
    for (int p : {3, 11, 19, 27, 33, 36, 42}) {
      INFO("pattern " << p);
      CHECK(units["read " + std::to_string(p)] == units["write " + std::to_string(p)]);
    }
    CHECK(units["rewrite 3"] == units["write 3"]);
    // b_eff_io 2.1: repetitions of the 1 MB segment pattern = min(r0 * 1, 10 * r1, r2).
    const std::int64_t reps =
        std::min({units["write 3"], 10 * units["write 11"], units["write 19"]});
    CHECK(units["write 27"] == reps);
    CHECK(units["write 36"] == reps);
    const auto &fig = mod["figure"];
    CHECK(fig["values"][0]["unit"] == "MB/s");
    const double wr = fig_value(fig, P + " b_eff_io(write+rewrite type 0)");
    const double rd = fig_value(fig, P + " b_eff_io(read)");
    CHECK(fig_value(fig, P + " b_eff_io") == Approx(std::sqrt(wr * rd)));
    CHECK(notes_with(fig, "definition original (b_eff_io 2.1") == 1);
    // From the types table: (w0 + ... + w4 + rw0) / 6 and (2 r0 + r1 + ... + r4) / 6.
    double w_sum = 0, r_sum = 0;
    for (const auto &row : fig_rows(fig, "types")) {
      const std::string method = row.at("method");
      const int type = row.at("type");
      const double bw = row.at("MB/s");
      CHECK(bw == Approx(row.at("bytes").get<double>() / 1e6 / row.at("time_s").get<double>()));
      if (method != "read")
        w_sum += bw;
      else
        r_sum += (type == 0 ? 2 : 1) * bw;
    }
    CHECK(wr == Approx(w_sum / 6));
    CHECK(rd == Approx(r_sum / 6));
    return labels == expected;
  }));
}

TEST_CASE("MaxFileSize holds for every pattern type: the files never exceed it", "[beff][cap]") {
  const int n = pio::test::size();
  pio::test::TempDir dir;
  // One call of each pattern needs n x (1 MB x 5 types) plus n x 1 MB of rounding for each of
  // the two segmented files: 7n MB. The cap leaves 5n MB more, shared by U (pattern 3: U 4 of
  // 12 -> 1 more call; the others U 2 -> none). T = 3 s wants far more than that.
  const std::int64_t cap = 12 * n * M;
  const std::string conf =
      "TestFile " + dir.file("cap") +
      "\n<ap_module>\nModuleName beff_io\n"
      "ScheduledTime 3\nDeleteOnClose off\nPatterns 3 11 19 27 33 36 42\nMPart 2M\nMaxFileSize " +
      std::to_string(cap) + "\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "cap", conf, true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    std::int64_t total = 0;
    std::map<std::string, std::int64_t> sizes;
    for (const std::string suffix : {".type0", ".type1", ".type3", ".type4"})
      sizes[suffix] =
          static_cast<std::int64_t>(pio::test::read_bytes(dir.file("cap") + suffix).size());
    for (int r = 0; r < n; ++r)
      sizes[".type2." + std::to_string(r)] = static_cast<std::int64_t>(
          pio::test::read_bytes(dir.file("cap") + ".type2." + std::to_string(r)).size());
    for (const auto &[suffix, bytes] : sizes) {
      INFO(suffix << ": " << bytes << " bytes");
      CHECK(bytes > 0);
      total += bytes;
    }
    INFO("all files: " << total << " bytes, cap " << cap);
    CHECK(total <= cap);
    // The files hold what the results say the write loops wrote: pattern 3 (type 0) as many
    // 1 MB calls as its write recorded units, at most the 2 the cap leaves it and one when a
    // second would have overrun its 0.43 s (a loaded machine); the others 1 call; type 3/4
    // segments min(r0, 10 x 1, 1) = 1 MB per rank.
    std::int64_t w3 = -1;
    bool w3_spent = false;
    std::string w3_phase;
    for (const auto &test : ran.results["modules"][0]["tests"])
      for (const auto &ph : test["reps"][0]["phases"]) {
        const auto k = parse_label(ph["label"]);
        if (k.pattern == 3 && k.method == "write" && !k.sync) {
          w3 = ph["units"];
          w3_spent = stopped_by_schedule(ph);
          w3_phase = ph.dump();
        }
      }
    INFO("pattern 3 wrote " << w3 << " units: " << w3_phase);
    CHECK((w3 == 1 || w3 == 2));
    CHECK(sizes[".type0"] == w3 * n * M);
    CHECK(sizes[".type1"] == n * M);
    CHECK(sizes[".type3"] == n * M);
    CHECK(sizes[".type4"] == n * M);
    const auto &fig = ran.results["modules"][0]["figure"];
    // Two calls: the cap stopped it, and the figure says so; one: its schedule did.
    CHECK(notes_with(fig, "MaxFileSize capped: write 3 1M") == (w3 == 2 ? 1 : 0));
    if (w3 == 1)
      CHECK(w3_spent);
    CHECK(fig_value(fig, "meets_rule") == 0);
    return total <= cap && sizes[".type0"] == w3 * n * M;
  }));
}

TEST_CASE("a MaxFileSize below one call of every pattern is refused before any I/O",
          "[beff][cap]") {
  pio::test::TempDir dir;
  const std::string conf = "TestFile " + dir.file("small") +
                           "\n<ap_module>\nModuleName beff_io\nScheduledTime 1\n"
                           "Patterns 3 11\nMPart 2M\nMaxFileSize 1M\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "small", conf);
  INFO(ran.err << ran.out);
  REQUIRE(all_ranks(ran.exit_code != 0));
  REQUIRE(on_root([&] {
    const std::string text = ran.err + ran.out + ran.results.dump();
    CHECK(text.find("MaxFileSize") != std::string::npos);
    CHECK_FALSE(pio::test::exists(dir.file("small") + ".type0"));
    return text.find("MaxFileSize") != std::string::npos;
  }));
}
