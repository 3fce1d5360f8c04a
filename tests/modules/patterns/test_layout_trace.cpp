// LayoutTrace of the pattern engine: the extents a pattern module traces per (rank, unit) equal
// the thesis's definition (simple strided §3.4.1 Fig. 3.5, tiled Fig. 3.10), computed by hand
// below, and are exactly the bytes the module wrote: every traced byte holds its rank's Verify
// stamp, every other byte of the file is zero, and the file ends where the last extent ends.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "layout_checks.hpp"
#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

/// by unit, then by rank
using Layout = std::vector<std::vector<Extents>>;

/// "" when `t` traces exactly `expected` for the run's ranks.
std::string compare_layout(const Traced &t, const Layout &expected) {
  const auto units = static_cast<std::int64_t>(expected.size());
  if (t.test["ranks"] != size() || t.test["units"] != units ||
      t.extents.size() != static_cast<size_t>(units * size()))
    return "unexpected test line or row count: " + t.test.dump();
  for (std::int64_t u = 0; u < units; ++u)
    for (int r = 0; r < size(); ++r) {
      const auto &want = expected[static_cast<size_t>(u)][static_cast<size_t>(r)];
      const auto &got = t.extents.at({r, u});
      if (got != want)
        return t.test["module"].get<std::string>() + " rank " + std::to_string(r) + " unit " +
               std::to_string(u) + ": traced " + text(got) + ", expected " + text(want);
    }
  return "";
}

// Simple strided, HeaderOffset 16, StripSize 1K, BufferSizes 2K (two strips per unit),
// WorkUnits 2: strip k of rank r in unit u at 16 + (2u + k) * P * 1024 + r * 1024 (thesis Fig.
// 3.5: strips of all ranks form a stripe of stride P x StripSize). Written out by hand.
Layout simple_strided_expected() {
  const std::int64_t K = 1024;
  switch (size()) {
  case 1:
    return {{{{16, K}, {1040, K}}}, {{{2064, K}, {3088, K}}}};
  case 2:
    return {{{{16, K}, {2064, K}}, {{1040, K}, {3088, K}}},
            {{{4112, K}, {6160, K}}, {{5136, K}, {7184, K}}}};
  default: // 4
    return {{{{16, K}, {4112, K}},
             {{1040, K}, {5136, K}},
             {{2064, K}, {6160, K}},
             {{3088, K}, {7184, K}}},
            {{{8208, K}, {12304, K}},
             {{9232, K}, {13328, K}},
             {{10256, K}, {14352, K}},
             {{11280, K}, {15376, K}}}};
  }
}

// Tiled, tiles of 2x2 elements of 4 bytes, grid P x 1 (2 x 2 at 4 ranks), HeaderOffset 8,
// WorkUnits 2: unit u is dataset u; each tile row is 8 bytes (thesis Fig. 3.10). At 2 ranks the
// dataset is 4x2 elements (32 bytes), at 4 ranks 4x4 (64 bytes); written out by hand.
Layout tiled_expected() {
  switch (size()) {
  case 1:
    return {{{{8, 8}, {16, 8}}}, {{{24, 8}, {32, 8}}}};
  case 2:
    return {{{{8, 8}, {24, 8}}, {{16, 8}, {32, 8}}}, {{{40, 8}, {56, 8}}, {{48, 8}, {64, 8}}}};
  default: // 4
    return {{{{8, 8}, {24, 8}}, {{16, 8}, {32, 8}}, {{40, 8}, {56, 8}}, {{48, 8}, {64, 8}}},
            {{{72, 8}, {88, 8}}, {{80, 8}, {96, 8}}, {{104, 8}, {120, 8}}, {{112, 8}, {128, 8}}}};
  }
}

std::string tiles() { return size() == 4 ? "2x2" : std::to_string(size()) + "x1"; }

} // namespace

// 4 ranks: tiled runs on the 2x2 grid, simple strided's stripe holds 4 strips.
TEST_CASE("layout trace: simple_strided and tiled trace the thesis's extents, exactly the "
          "bytes they write",
          "[layout_trace][4ranks]") {
  TempDir dir;
  for (const char *mode : {"write", "read"}) {
    INFO(mode);
    // One trace per harness process: the tests run the harness in-process, so one per mode.
    const std::string trace = dir.file(std::string("layout-") + mode + ".jsonl");
    write_text(trace, "a stale trace of an earlier run\n"); // rewritten, not appended to
    const std::string traced = "  LayoutTrace \"" + trace + "\"\n";
    const std::vector<Block> blocks = {
        {"simple_strided", mode, false, true,
         "  BufferSizes 2K\n  StripSize 1K\n  WorkUnits 2\n  HeaderOffset 16\n" + traced,
         dir.file(std::string("s-") + mode)},
        {"tiled", mode, true, true,
         "  TileSizes 2x2\n  Tiles " + tiles() +
             "\n  ElementSize 4\n  WorkUnits 2\n  HeaderOffset 8\n" + traced,
         dir.file(std::string("t-") + mode)}};
    run_and_check(dir, mode, config_text(dir, blocks), [&](const nlohmann::json &) {
      std::string problem;
      const auto tests = read_trace(trace, &problem);
      if (!problem.empty())
        return problem;
      // Both blocks of the run append to one trace; nothing of the earlier run remains.
      if (tests.size() != 2 || tests[0].test["module"] != "simple_strided" ||
          tests[1].test["module"] != "tiled" || tests[0].test["mode"] != mode)
        return "expected one simple_strided and one tiled test, got " +
               std::to_string(tests.size());
      problem = compare_layout(tests[0], simple_strided_expected());
      if (problem.empty())
        problem = compare_layout(tests[1], tiled_expected());
      // The file holds exactly the traced bytes, each with its rank's stamp (Verify on).
      if (problem.empty())
        problem = compare_file(blocks[0].file, traced_image(tests[0]), mode);
      if (problem.empty())
        problem = compare_file(blocks[1].file, traced_image(tests[1]), mode);
      return problem;
    });
  }
}

TEST_CASE("layout trace: an unwritable path is a config error naming LayoutTrace",
          "[layout_trace]") {
  expect_failure("simple_strided", "  LayoutTrace \"/nonexistent-dir/x/trace.jsonl\"\n",
                 "LayoutTrace");
}

namespace {

/// The rows of a CSV file (RFC 4180 quoting), header first.
std::vector<std::vector<std::string>> read_csv(const std::string &path) {
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
      cell += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted && c == ',') {
      rows.back().push_back(cell);
      cell.clear();
    } else if (!quoted && c == '\n') {
      rows.back().push_back(cell);
      cell.clear();
      rows.emplace_back();
    } else if (!quoted && c == '\r') {
      continue;
    } else {
      cell += c;
    }
  }
  if (rows.back().empty())
    rows.pop_back();
  return rows;
}

} // namespace

TEST_CASE("layout trace: a test's file use is one text in the trace, the JSON and the CSV",
          "[layout_trace]") {
  TempDir dir;
  const std::string trace = dir.file("file-use.jsonl");
  const std::string traced = "  LayoutTrace \"" + trace + "\"\n";
  // Sequential writes give every rank its own file (thesis §3.4.1); strided reads share one.
  const std::vector<Block> blocks = {
      {"sequential", "write", false, true, "  BufferSizes 1K\n  WorkUnits 2\n" + traced,
       dir.file("seq")},
      {"simple_strided", "write", false, true,
       "  BufferSizes 1K\n  StripSize 1K\n  WorkUnits 2\n" + traced, dir.file("strided")}};
  pio::harness::RunOptions options;
  options.csv_path = dir.file("file-use.csv");
  const auto ran = run_config_with(dir, "file-use", config_text(dir, blocks), options);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    std::string problem;
    const auto tests = read_trace(trace, &problem);
    INFO(problem);
    CHECK(tests.size() == 2);
    if (tests.size() != 2)
      return false;
    CHECK(tests[0].test["file"] == "file-per-process");
    CHECK(tests[1].test["file"] == "shared");
    // The results document as written to disk, and the CSV's file_use column.
    std::ifstream json_in(dir.file("file-use.json"));
    const auto results = nlohmann::json::parse(json_in);
    const auto csv = read_csv(options.csv_path);
    CHECK(csv.size() >= 3);
    if (csv.size() < 3)
      return false;
    const auto &head = csv.front();
    const auto column = std::find(head.begin(), head.end(), "file_use") - head.begin();
    const auto module = std::find(head.begin(), head.end(), "module") - head.begin();
    CHECK(static_cast<size_t>(column) < head.size());
    if (static_cast<size_t>(column) >= head.size())
      return false;
    for (size_t b = 0; b < 2; ++b) {
      const auto &test = results["modules"][b]["tests"][0];
      CHECK(test["file_use"] == tests[b].test["file"]);
      for (size_t r = 1; r < csv.size(); ++r)
        if (csv[r].at(static_cast<size_t>(module)) == results["modules"][b]["module"])
          CHECK(csv[r].at(static_cast<size_t>(column)) == tests[b].test["file"]);
    }
    return true;
  }));
}
