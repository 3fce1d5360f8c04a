// Tests of the nested strided, random strided, sequential and segmented pattern modules
// (thesis §3.4.1 Figs. 3.6-3.9, temporal modes §3.4.2).
//
// Every module runs in all five temporal modes, independent and collective, with and without a
// file view, with Verify on and KeepFiles on; afterwards the file image is compared byte for
// byte against an independent computation of who owns which byte, written here from the
// thesis definitions (mostly as the inverse map offset -> owner), not with the modules' code.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pio/stamp.hpp"

using pio::test::all_ranks;
using pio::test::rank;
using pio::test::size;

namespace {

const char *const kModes[] = {"write", "read", "read-modify-write", "re-read", "re-write"};

/// The owner of each file byte (-1: nobody, the byte must be zero) and the file's length.
struct Image {
  std::int64_t length = 0;
  std::function<int(std::int64_t)> owner;
};

/// The byte the last access of `mode` leaves at offset o of a byte owned by `owner`.
std::uint8_t final_byte(const std::string &mode, int owner, std::int64_t o) {
  if (mode == "re-write")
    return pio::stamp_byte(owner, o, 1);
  if (mode == "read-modify-write")
    return pio::stamp_byte(owner, o, 0) ^ 0xA5; // common/temporal_mode.hpp kModifyMask
  return pio::stamp_byte(owner, o, 0);          // write; read and re-read see prepared data
}

/// Compares a file with the image; returns "" or the first difference.
std::string compare(const std::string &path, const Image &img, const std::string &mode) {
  std::vector<std::uint8_t> data;
  try {
    data = pio::test::read_bytes(path);
  } catch (const std::exception &e) {
    return e.what();
  }
  if (static_cast<std::int64_t>(data.size()) != img.length)
    return path + ": length " + std::to_string(data.size()) + ", expected " +
           std::to_string(img.length);
  for (std::int64_t o = 0; o < img.length; ++o) {
    const int who = img.owner(o);
    const unsigned expect = who < 0 ? 0u : final_byte(mode, who, o);
    if (data[static_cast<size_t>(o)] != expect)
      return path + ": offset " + std::to_string(o) + " (owner " + std::to_string(who) +
             "): expected " + std::to_string(expect) + ", found " +
             std::to_string(data[static_cast<size_t>(o)]);
  }
  return "";
}

/// The length of a file whose bytes at or beyond `bound` are unowned: one past the last owned.
std::int64_t length_of(const std::function<int(std::int64_t)> &owner, std::int64_t bound) {
  while (bound > 0 && owner(bound - 1) < 0)
    --bound;
  return bound;
}

/// "" when every module and test in the results has no error and every test ran its reps.
std::string result_errors(const nlohmann::json &results) {
  if (!results.is_object() || !results.contains("modules"))
    return "no results document";
  for (const auto &m : results["modules"]) {
    if (!m["error"].is_null())
      return "module error: " + m["error"].dump();
    if (m["tests"].empty())
      return "module " + m.value("module_name", std::string()) + " ran no tests";
    for (const auto &t : m["tests"]) {
      if (!t["error"].is_null())
        return "test error: " + t["error"].dump();
      if (t["reps"].empty())
        return "test without reps";
    }
  }
  return "";
}

/// One block of a config: its module, mode, I/O flavour and own directives.
struct Block {
  std::string module;
  std::string mode;
  bool collective = false;
  bool view = true;
  std::string directives;
  std::string file; ///< TestFile of the block
};

std::string config_text(const pio::test::TempDir &dir, const std::vector<Block> &blocks) {
  std::ostringstream c;
  c << "TestFile \"" << dir.file("unused") << "\"\nVerify on\nKeepFiles on\n";
  for (const auto &b : blocks)
    c << "<ap_module>\n  ModuleName \"" << b.module << "\"\n  TestFile \"" << b.file
      << "\"\n  Mode " << b.mode << "\n  Collective " << (b.collective ? "on" : "off")
      << "\n  FileView " << (b.view ? "on" : "off") << "\n"
      << b.directives << "</ap_module>\n";
  return c.str();
}

/// Runs `module` in every temporal mode x {independent, collective} x {view, no view}, then
/// checks the results and every file image. image(file_rank) gives the expected image of the
/// shared file (file_rank -1) or of rank r's own file (file_rank r) for a mode.
void run_all_modes(const std::string &module, const std::string &directives,
                   const std::function<bool(const std::string &mode)> &per_process,
                   const std::function<Image(const std::string &mode, int file_rank)> &image,
                   const std::vector<std::string> &modes = {std::begin(kModes), std::end(kModes)}) {
  pio::test::TempDir dir;
  std::vector<Block> blocks;
  for (const auto &mode : modes)
    for (int collective = 0; collective < 2; ++collective)
      for (int view = 0; view < 2; ++view) {
        Block b{module, mode, collective != 0, view != 0, directives, ""};
        b.file = dir.file(module + "-" + mode + (b.collective ? "-coll" : "-ind") +
                          (b.view ? "-view" : "-noview"));
        blocks.push_back(b);
      }
  const auto ran = pio::test::run_config(dir, module, config_text(dir, blocks), true);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    problem = result_errors(ran.results);
    for (const auto &b : blocks) {
      if (!problem.empty())
        break;
      if (per_process(b.mode)) {
        for (int r = 0; r < size() && problem.empty(); ++r)
          problem = compare(b.file + "." + std::to_string(r), image(b.mode, r), b.mode);
      } else {
        problem = compare(b.file, image(b.mode, -1), b.mode);
      }
    }
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

/// Runs a one-block config that must fail with a message containing `needle` (rank 0 reports
/// errors on its stderr and in the results document).
void expect_failure(const std::string &module, const std::string &directives,
                    const std::string &needle) {
  pio::test::TempDir dir;
  Block b{module, "write", false, true, directives, dir.file("bad")};
  const auto ran = pio::test::run_config(dir, "bad", config_text(dir, {b}), false);
  const std::string text = ran.err + (ran.results.is_null() ? std::string() : ran.results.dump());
  INFO(directives << "\nexpected an error containing: " << needle << "\ngot: " << text);
  REQUIRE(all_ranks(ran.exit_code != 0));
  REQUIRE(all_ranks(rank() != 0 || text.find(needle) != std::string::npos));
}

bool never(const std::string &) { return false; }

// --- nested strided (Fig. 3.6): inverse map offset -> (tile, row, column) -> rank ----------------

Image nested_image(std::int64_t header, std::int64_t buffer, std::int64_t inner_count,
                   std::int64_t outer_count, std::int64_t inner_stride, std::int64_t outer_stride,
                   std::int64_t units) {
  const int p = size();
  const std::int64_t strip = buffer / (inner_count * outer_count);
  const std::int64_t si = inner_stride ? inner_stride : p * strip;
  const std::int64_t so = outer_stride ? outer_stride : inner_count * si;
  auto owner = [=](std::int64_t o) {
    if (o < header)
      return -1;
    const std::int64_t rel = o - header;
    if (rel / so >= units * outer_count) // tiles of all units
      return -1;
    const std::int64_t in_tile = rel % so;
    if (in_tile / si >= inner_count) // rows of a tile
      return -1;
    const std::int64_t column = in_tile % si;
    return column < p * strip ? static_cast<int>(column / strip) : -1;
  };
  return {length_of(owner, header + units * outer_count * so), owner};
}

// --- random strided (Fig. 3.7): the seeded draw, round robin ------------------------------------

/// The layout's definition: splitmix64 from Seed, strip(u, r) = lo + next() mod (hi-lo+1),
/// drawn for u = 0.., r = 0..P-1, laid out one after another from the header.
std::vector<int> random_owners(std::uint64_t seed, std::int64_t lo, std::int64_t hi,
                               std::int64_t header, std::int64_t cycles, double *mean) {
  std::vector<int> owners(static_cast<size_t>(header), -1);
  std::uint64_t state = seed;
  std::int64_t total = 0;
  for (std::int64_t u = 0; u < cycles; ++u)
    for (int r = 0; r < size(); ++r) {
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      z ^= z >> 31;
      const auto len = lo + static_cast<std::int64_t>(z % static_cast<std::uint64_t>(hi - lo + 1));
      owners.insert(owners.end(), static_cast<size_t>(len), r);
      total += len;
    }
  *mean = static_cast<double>(total) / static_cast<double>(cycles * size());
  return owners;
}

// --- segmented (Fig. 3.9): offset -> segment -> rank ---------------------------------------------

Image segmented_image(const std::string &assignment, std::int64_t header, std::int64_t buffer,
                      std::int64_t units) {
  const int p = size();
  const std::int64_t segment = buffer * units;
  auto owner = [=](std::int64_t o) {
    if (o < header || (o - header) / segment >= p)
      return -1;
    const int s = static_cast<int>((o - header) / segment);
    if (assignment == "reverse")
      return p - 1 - s;
    if (assignment == "rotate")
      return (s - 1 + p) % p; // rank r holds segment (r + 1) mod P
    return s;
  };
  return {header + p * segment, owner};
}

} // namespace

TEST_CASE("nested strided: every temporal mode, image byte-exact", "[patterns_a][nested]") {
  // 1K per rank per unit = 2 tiles x 4 strips of 128 bytes; strips 1K apart, tiles 5K apart
  // (gaps between ranks' columns for P < 8 and between tiles), 2 units, 100-byte header.
  // ROMIO's data sieving fills gaps beyond the end of file with junk when it writes through a
  // view with holes (only unowned bytes; owned bytes are exact), so the gaps are checked with
  // write sieving off.
  const std::string d = "  BufferSizes 1K\n  InnerCount 4\n  OuterCount 2\n  InnerStride 1K\n"
                        "  OuterStride 5K\n  WorkUnits 2\n  HeaderOffset 100\n"
                        "  Hint romio_ds_write disable\n";
  const Image img = nested_image(100, 1024, 4, 2, 1024, 5 * 1024, 2);
  run_all_modes("nested_strided", d, never, [&](const std::string &, int) { return img; });
}

TEST_CASE("nested strided: dense defaults and the thesis title", "[patterns_a][nested]") {
  pio::test::TempDir dir;
  Block b{"Nested Strided (re-write)",
          "re-write",
          true,
          true,
          "  BufferSizes 768\n  InnerCount 3\n  OuterCount 2\n  WorkUnits 3\n",
          dir.file("dense")};
  // "Title (mode)" selects the mode: drop the Mode line the helper writes.
  std::string text = config_text(dir, {b});
  text.erase(text.find("  Mode re-write\n"), 16);
  const auto ran = pio::test::run_config(dir, "dense", text, true);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    problem = result_errors(ran.results);
    if (problem.empty())
      problem = compare(dir.file("dense"), nested_image(0, 768, 3, 2, 0, 0, 3), "re-write");
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

TEST_CASE("nested strided: bad directives are clear errors", "[patterns_a][nested]") {
  expect_failure("nested_strided", "  BufferSizes 1K\n  InnerStride 4K\n  OuterStride 2K\n",
                 "InnerStride (4K) is larger than OuterStride (2K)");
  expect_failure("nested_strided", "  BufferSizes 1000\n  InnerCount 3\n",
                 "not a multiple of InnerCount x OuterCount");
  expect_failure("nested_strided", "  BufferSizes 0\n", "BufferSizes must be positive");
  expect_failure("nested_strided", "  InnerCount 0\n", "InnerCount must be positive");
  expect_failure("nested_strided", "  BufferSizes 1K\n  InnerStride 8\n",
                 "ranks' strips would overlap");
  expect_failure("nested_strided", "  BufferSizes -1K\n", "-1K");
}

TEST_CASE("random strided: every temporal mode, image byte-exact", "[patterns_a][random]") {
  double mean = 0;
  const auto owners = random_owners(7, 100, 300, 64, 3, &mean);
  const Image img{static_cast<std::int64_t>(owners.size()),
                  [owners](std::int64_t o) { return owners[static_cast<size_t>(o)]; }};
  run_all_modes("random_strided",
                "  StripBounds 100-300\n  Seed 7\n  WorkUnits 3\n"
                "  HeaderOffset 64\n",
                never, [&](const std::string &, int) { return img; });
}

TEST_CASE("random strided: seed and mean strip size are reported", "[patterns_a][random]") {
  pio::test::TempDir dir;
  Block b{"random_strided",
          "write",
          false,
          true,
          "  StripBounds 1K-2K 2K-4K\n  Seed 42\n  WorkUnits 4\n",
          dir.file("rs")};
  const auto ran = pio::test::run_config(dir, "rs", config_text(dir, {b}), false);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    const auto &tests = ran.results["modules"][0]["tests"];
    const std::int64_t bounds[2][2] = {{1024, 2048}, {2048, 4096}};
    for (int k = 0; k < 2 && problem.empty(); ++k) {
      double mean = 0;
      random_owners(42, bounds[k][0], bounds[k][1], 0, 4, &mean);
      const auto &t = tests[static_cast<size_t>(k)];
      if (t["params"].value("seed", std::string()) != "42")
        problem = "seed not recorded: " + t["params"].dump();
      else if (t["buffer_size"].get<std::int64_t>() != static_cast<std::int64_t>(mean + 0.5))
        problem = "buffer_size " + t["buffer_size"].dump() + ", mean strip " + std::to_string(mean);
      else if (std::abs(std::stod(t["params"].value("mean_strip", std::string("0"))) - mean) > 1e-6)
        problem = "mean_strip " + t["params"].dump() + ", expected " + std::to_string(mean);
    }
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

TEST_CASE("random strided: bad directives are clear errors", "[patterns_a][random]") {
  expect_failure("random_strided", "  StripBounds 0-2K\n", "allows empty strips");
  expect_failure("random_strided", "  StripBounds 4K-2K\n", "upper bound below its lower bound");
  expect_failure("random_strided", "  StripBounds 4K\n", "is not of the form lo-hi");
  expect_failure("random_strided", "  WorkUnits 0\n", "WorkUnits must be positive");
}

/// Sequential directives of the mode tests: 4 strips of 1K after a 16-byte header, rank r
/// starting at strip r.
const char *const kSequential = "  BufferSizes 1K\n  WorkUnits 4\n  HeaderOffset 16\n"
                                "  Interleave 1\n";

/// The image of a sequential file: every byte after the header holds `who`'s stamps.
Image sequential_image(int who) {
  return Image{16 + 4 * 1024, [who](std::int64_t o) { return o >= 16 ? who : -1; }};
}

TEST_CASE("sequential: every temporal mode, one file per process for writes",
          "[patterns_a][sequential]") {
  // Modes that write give each process its own file, holding that rank's stamps.
  run_all_modes(
      "sequential", kSequential, [](const std::string &) { return true; },
      [](const std::string &, int file_rank) { return sequential_image(file_rank); },
      {"write", "read-modify-write", "re-write"});
}

// Read and re-read share one file that every rank reads whole. Its data comes from one rank
// (Geometry::data_rank: rank 0 prepares it and every rank verifies against rank 0's stamps).
TEST_CASE("sequential: read modes share one file", "[patterns_a][sequential]") {
  run_all_modes(
      "sequential", kSequential, [](const std::string &) { return false; },
      [](const std::string &, int) { return sequential_image(0); }, {"read", "re-read"});
}

TEST_CASE("sequential: FileSize sets the number of requests", "[patterns_a][sequential]") {
  pio::test::TempDir dir;
  Block b{"sequential",   "write", false, false, "  BufferSizes 512 1K\n  FileSize 4K\n",
          dir.file("seq")};
  const auto ran = pio::test::run_config(dir, "seq", config_text(dir, {b}), true);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    problem = result_errors(ran.results);
    const auto &tests = ran.results["modules"][0]["tests"];
    if (problem.empty() && (tests[0]["params"].value("work_units", "") != "8" ||
                            tests[1]["params"].value("work_units", "") != "4" ||
                            tests[0]["file_use"] != tests[1]["file_use"]))
      problem = "unexpected tests: " + tests.dump();
    // The last test (1K x 4) leaves each rank's file 4K of its own stamps.
    for (int r = 0; r < size() && problem.empty(); ++r)
      problem = compare(dir.file("seq") + "." + std::to_string(r),
                        Image{4096, [r](std::int64_t) { return r; }}, "write");
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

TEST_CASE("sequential: bad directives are clear errors", "[patterns_a][sequential]") {
  expect_failure("sequential", "  BufferSizes 1K\n  FileSize 1500\n",
                 "is not a multiple of buffer size");
  expect_failure("sequential", "  Interleave -1\n", "Interleave must not be negative");
  expect_failure("sequential", "  BufferSizes 1K 0\n", "BufferSizes must be positive");
}

TEST_CASE("segmented: every temporal mode, image byte-exact", "[patterns_a][segmented]") {
  const Image img = segmented_image("reverse", 10, 512, 3);
  run_all_modes("segmented",
                "  BufferSizes 512\n  WorkUnits 3\n  HeaderOffset 10\n"
                "  Assignment reverse\n",
                never, [&](const std::string &, int) { return img; });
}

TEST_CASE("segmented: rank and rotate assignments", "[patterns_a][segmented]") {
  for (const char *assignment : {"rank", "rotate"}) {
    pio::test::TempDir dir;
    Block b{"segmented",
            "write",
            true,
            true,
            std::string("  BufferSizes 256\n  WorkUnits 2\n  Assignment ") + assignment + "\n",
            dir.file("seg")};
    const auto ran = pio::test::run_config(dir, "seg", config_text(dir, {b}), true);
    INFO(assignment << "\n" << ran.out << ran.err);
    REQUIRE(all_ranks(ran.exit_code == 0));
    std::string problem;
    if (rank() == 0) {
      problem = result_errors(ran.results);
      if (problem.empty())
        problem = compare(dir.file("seg"), segmented_image(assignment, 0, 256, 2), "write");
    }
    INFO(problem);
    REQUIRE(all_ranks(problem.empty()));
  }
}

TEST_CASE("segmented: bad directives are clear errors", "[patterns_a][segmented]") {
  expect_failure("segmented", "  WorkUnits -2\n", "WorkUnits must be positive");
  expect_failure("segmented", "  Assignment sideways\n", "sideways");
}
