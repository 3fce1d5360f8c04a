// Tests of the nested strided, random strided, sequential and segmented pattern modules
// (thesis §3.4.1 Figs. 3.6-3.9, temporal modes §3.4.2).
//
// Every module runs in all five temporal modes (at 4 ranks write and read: modes_at_this_size),
// independent and collective, with and without a file view, with Verify on and KeepFiles on;
// afterwards the file image is compared byte for byte against an independent computation of who
// owns which byte, written here from the thesis definitions (mostly as the inverse map offset ->
// owner), not with the modules' code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test; // the suites' shared checks and MPI test helpers

namespace {

/// The length of a file whose bytes at or beyond `bound` are unowned: one past the last owned.
std::int64_t length_of(const std::function<int(std::int64_t)> &owner, std::int64_t bound) {
  while (bound > 0 && owner(bound - 1) < 0)
    --bound;
  return bound;
}

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

// 4 ranks: rank r's strips sit at r x strip in every row; ranks 2 and 3 are where two ranks never
// reach.
TEST_CASE("nested strided: every temporal mode, image byte-exact", "[patterns_a][nested][4ranks]") {
  // 1K per rank per unit = 2 tiles x 4 strips of 128 bytes; strips 1K apart, tiles 5K apart
  // (gaps between ranks' columns for P < 8 and between tiles), 2 units, 100-byte header.
  // ROMIO's data sieving and its two-phase collective buffers fill gaps beyond the end of file
  // with junk when they write through a view with holes (only unowned bytes; owned bytes are
  // exact). So after write and re-write (whose first write meets an empty file) the gaps are
  // unspecified; the other modes write into a file prepared by explicit offsets, so their gaps
  // must stay zero (write sieving is off so that independent writes keep them).
  const std::string d = "  BufferSizes 1K\n  InnerCount 4\n  OuterCount 2\n  InnerStride 1K\n"
                        "  OuterStride 5K\n  WorkUnits 2\n  HeaderOffset 100\n"
                        "  Hint romio_ds_write disable\n";
  const Image img = nested_image(100, 1024, 4, 2, 1024, 5 * 1024, 2);
  const Image gaps_unspecified{img.length, [img](std::int64_t o) {
                                 const int who = img.owner(o);
                                 return who < 0 && o >= 100 ? kUnspecified : who;
                               }};
  run_all_modes(
      "nested_strided", d, [](const std::string &) { return false; },
      [&](const std::string &mode, int) {
        return mode == "write" || mode == "re-write" ? gaps_unspecified : img;
      });
}

// 4 ranks: the default InnerStride is P x strip.
TEST_CASE("nested strided: dense defaults and the thesis title", "[patterns_a][nested][4ranks]") {
  TempDir dir;
  const std::string d = "  BufferSizes 768\n  InnerCount 3\n  OuterCount 2\n  WorkUnits 3\n";
  Block b{"Nested Strided (re-write)", "re-write", true, true, d, dir.file("dense")};
  // "Title (mode)" selects the mode: drop the Mode line the helper writes.
  std::string text = config_text(dir, {b});
  text.erase(text.find("  Mode re-write\n"), 16);
  run_and_check(dir, "dense", text, [&](const nlohmann::json &) {
    return compare_file(dir.file("dense"), nested_image(0, 768, 3, 2, 0, 0, 3), "re-write");
  });
}

TEST_CASE("nested strided: bad directives are clear errors", "[patterns_a][nested]") {
  expect_failure("nested_strided", "  BufferSizes 1K\n  InnerStride 4K\n  OuterStride 2K\n",
                 "InnerStride (4K) is larger than OuterStride (2K)");
  expect_failure("nested_strided", "  BufferSizes 1000\n  InnerCount 3\n",
                 "not a multiple of InnerCount x OuterCount");
  expect_limit_error("nested_strided", "  BufferSizes 0\n", "BufferSizes");
  expect_limit_error("nested_strided", "  InnerCount 0\n", "InnerCount");
  expect_failure("nested_strided", "  BufferSizes 1K\n  InnerStride 8\n",
                 "ranks' strips would overlap");
  expect_failure("nested_strided", "  BufferSizes -1K\n", "-1K");
}

// 4 ranks: each cycle draws a strip for ranks 0 .. P-1 in turn, and rank r's offset sums the strips
// of every rank before it (at 2 ranks, of one).
TEST_CASE("random strided: every temporal mode, image byte-exact", "[patterns_a][random][4ranks]") {
  double mean = 0;
  const auto owners = random_owners(7, 100, 300, 64, 3, &mean);
  const Image img{static_cast<std::int64_t>(owners.size()),
                  [owners](std::int64_t o) { return owners[static_cast<size_t>(o)]; }};
  run_all_modes("random_strided",
                "  StripBounds 100-300\n  Seed 7\n  WorkUnits 3\n"
                "  HeaderOffset 64\n",
                img);
}

// 4 ranks: the mean strip is over WorkUnits x P strips.
TEST_CASE("random strided: seed and mean strip size are reported", "[patterns_a][random][4ranks]") {
  TempDir dir;
  const std::string d = "  StripBounds 1K-2K 2K-4K\n  Seed 42\n  WorkUnits 4\n";
  Block b{"random_strided", "write", false, true, d, dir.file("rs")};
  run_and_check(
      dir, "rs", config_text(dir, {b}),
      [&](const nlohmann::json &results) {
        const auto &tests = results["modules"][0]["tests"];
        const std::int64_t bounds[2][2] = {{1024, 2048}, {2048, 4096}};
        for (int k = 0; k < 2; ++k) {
          double mean = 0;
          random_owners(42, bounds[k][0], bounds[k][1], 0, 4, &mean);
          const auto &t = tests[static_cast<size_t>(k)];
          if (t["params"].value("seed", std::string()) != "42")
            return "seed not recorded: " + t["params"].dump();
          if (t["buffer_size"].get<std::int64_t>() != static_cast<std::int64_t>(mean + 0.5))
            return "buffer_size " + t["buffer_size"].dump() + ", mean strip " +
                   std::to_string(mean);
          if (std::abs(std::stod(t["params"].value("mean_strip", std::string("0"))) - mean) > 1e-6)
            return "mean_strip " + t["params"].dump() + ", expected " + std::to_string(mean);
        }
        return std::string();
      },
      false);
}

/// The seed of repetition 1 under Reseed per_repetition: the first output of splitmix64(seed).
std::uint64_t first_splitmix_output(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Bytes the ranks move in a layout of random_owners (every owned byte once).
std::int64_t owned_bytes(const std::vector<int> &owners) {
  return static_cast<std::int64_t>(
      std::count_if(owners.begin(), owners.end(), [](int who) { return who >= 0; }));
}

TEST_CASE("random strided: Reseed per_repetition draws a new layout per repetition",
          "[patterns_a][random]") {
  for (const bool reseed : {true, false}) {
    // Two repetitions, in write (verified by reading back) and read (verified data read).
    double mean = 0;
    const auto first = random_owners(7, 100, 300, 64, 3, &mean);
    const auto second =
        reseed ? random_owners(first_splitmix_output(7), 100, 300, 64, 3, &mean) : first;
    if (reseed)
      REQUIRE(owned_bytes(first) != owned_bytes(second)); // the two draws differ
    TempDir dir;
    const std::string d = std::string("  StripBounds 100-300\n  Seed 7\n  WorkUnits 3\n") +
                          "  HeaderOffset 64\n  ModuleReps 2\n  Reseed " +
                          (reseed ? "per_repetition" : "never") + "\n";
    const std::vector<Block> blocks = {{"random_strided", "write", false, true, d, dir.file("w")},
                                       {"random_strided", "read", true, true, d, dir.file("r")}};
    INFO("reseed " << reseed);
    run_and_check(dir, "rs", config_text(dir, blocks), [&](const nlohmann::json &results) {
      for (const auto &m : results["modules"]) {
        const auto &reps = m["tests"][0]["reps"];
        if (reps.size() != 2 || reps[0]["bytes"].get<std::int64_t>() != owned_bytes(first) ||
            reps[1]["bytes"].get<std::int64_t>() != owned_bytes(second))
          return "repetition bytes " + reps.dump() + ", expected " +
                 std::to_string(owned_bytes(first)) + " and " + std::to_string(owned_bytes(second));
        if (m["tests"][0]["params"].value("reseed", "") != (reseed ? "per_repetition" : "never"))
          return "reseed not recorded: " + m["tests"][0]["params"].dump();
      }
      // The second repetition wrote over the first; beyond its end the first one's bytes stay.
      const auto &top = second.size() >= first.size() ? second : first;
      const Image img{static_cast<std::int64_t>(top.size()), [&](std::int64_t o) {
                        const auto k = static_cast<size_t>(o);
                        return k < second.size() ? second[k] : first[k];
                      }};
      return compare_file(dir.file("w"), img, "write");
    });
  }
}

TEST_CASE("random strided: bad directives are clear errors", "[patterns_a][random]") {
  expect_failure("random_strided", "  StripBounds 0-2K\n", "allows empty strips");
  expect_failure("random_strided", "  StripBounds 4K-2K\n", "upper bound below its lower bound");
  expect_failure("random_strided", "  StripBounds 4K\n", "is not of the form lo-hi");
  expect_limit_error("random_strided", "  WorkUnits 0\n", "WorkUnits");
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
  TempDir dir;
  const std::string d = "  BufferSizes 512 1K\n  FileSize 4K\n";
  Block b{"sequential", "write", false, false, d, dir.file("seq")};
  run_and_check(dir, "seq", config_text(dir, {b}), [&](const nlohmann::json &results) {
    const auto &tests = results["modules"][0]["tests"];
    if (tests[0]["params"].value("work_units", "") != "8" ||
        tests[1]["params"].value("work_units", "") != "4" ||
        tests[0]["file_use"] != tests[1]["file_use"])
      return "unexpected tests: " + tests.dump();
    // The last test (1K x 4) leaves each rank's file 4K of its own stamps.
    std::string problem;
    for (int r = 0; r < size() && problem.empty(); ++r)
      problem = compare_file(dir.file("seq") + "." + std::to_string(r),
                             Image{4096, [r](std::int64_t) { return r; }}, "write");
    return problem;
  });
}

TEST_CASE("sequential: bad directives are clear errors", "[patterns_a][sequential]") {
  expect_failure("sequential", "  BufferSizes 1K\n  FileSize 1500\n",
                 "is not a multiple of buffer size");
  expect_limit_error("sequential", "  Interleave -1\n", "Interleave");
  expect_limit_error("sequential", "  BufferSizes 1K 0\n", "BufferSizes");
}

// 4 ranks: reverse gives rank r segment P-1-r (at 2 ranks a swap).
TEST_CASE("segmented: every temporal mode, image byte-exact", "[patterns_a][segmented][4ranks]") {
  const Image img = segmented_image("reverse", 10, 512, 3);
  run_all_modes("segmented",
                "  BufferSizes 512\n  WorkUnits 3\n  HeaderOffset 10\n"
                "  Assignment reverse\n",
                img);
}

// 4 ranks: rotate differs from reverse only at 3 ranks or more.
TEST_CASE("segmented: rank and rotate assignments", "[patterns_a][segmented][4ranks]") {
  for (const char *assignment : {"rank", "rotate"}) {
    TempDir dir;
    const std::string d =
        std::string("  BufferSizes 256\n  WorkUnits 2\n  Assignment ") + assignment + "\n";
    Block b{"segmented", "write", true, true, d, dir.file("seg")};
    INFO(assignment);
    run_and_check(dir, "seg", config_text(dir, {b}), [&](const nlohmann::json &) {
      return compare_file(dir.file("seg"), segmented_image(assignment, 0, 256, 2), "write");
    });
  }
}

// ReorderTasks k (IOR -C): in the modes that read, rank (r + k) mod P prepares, with its own
// stamps, the bytes rank r reads, so every verified read (Verify on) checks another rank's data;
// write and re-write are unchanged. At one process (or k a multiple of P) it is a no-op.
// 4 ranks: the shift is (r + k) mod P; at 2 ranks k = 3 is k = 1, and r + k is r - k.
TEST_CASE("ReorderTasks: every rank reads data another rank wrote",
          "[patterns_a][reorder][4ranks]") {
  for (const int k : {1, 3}) {
    INFO("ReorderTasks " << k);
    // Every mode with a shift of 1; a shift of 3 (1 at two ranks) in read only.
    const std::vector<std::string> modes =
        k == 1 ? temporal_modes() : std::vector<std::string>{"read"};
    const Image own = segmented_image("rank", 10, 512, 3);
    run_all_modes(
        "segmented",
        "  BufferSizes 512\n  WorkUnits 3\n  HeaderOffset 10\n  ReorderTasks " + std::to_string(k) +
            "\n",
        [](const std::string &) { return false; },
        [&](const std::string &mode, int) {
          if (mode == "write" || mode == "re-write")
            return own;
          return Image{own.length, [&, k](std::int64_t o) {
                         const int who = own.owner(o);
                         return who < 0 ? who : (who + k) % size();
                       }};
        },
        modes);
  }
  // Sequential reads share one file every rank reads whole: rank k mod P prepares it.
  run_all_modes(
      "sequential", std::string(kSequential) + "  ReorderTasks 1\n",
      [](const std::string &) { return false; },
      [](const std::string &, int) { return sequential_image(1 % size()); }, {"read"});
}

TEST_CASE("segmented: bad directives are clear errors", "[patterns_a][segmented]") {
  expect_limit_error("segmented", "  WorkUnits -2\n", "WorkUnits");
  expect_failure("segmented", "  Assignment sideways\n", "sideways");
}

// --- segmented FilePerProcess (IOR -F, IO500's ior-easy) -----------------------------------------

TEST_CASE("segmented: FilePerProcess gives each rank a file of its own segment",
          "[patterns_a][segmented]") {
  // Each rank's file: the header, then WorkUnits x buffer bytes of its own stamps.
  run_all_modes(
      "segmented", "  BufferSizes 512\n  WorkUnits 3\n  HeaderOffset 10\n  FilePerProcess on\n",
      [](const std::string &) { return true; },
      [](const std::string &, int r) {
        return Image{10 + 3 * 512, [r](std::int64_t o) { return o >= 10 ? r : -1; }};
      });
}

// --- random offsets (IO500's ior-rnd4K, IOR -z -z) -----------------------------------------------

/// The blocks rank r touches, computed here from the definition: output u of splitmix64 seeded
/// with Seed + r * 2^32, mod the file's blocks.
std::vector<std::int64_t> random_blocks(std::uint64_t seed, int r, std::int64_t units,
                                        std::int64_t blocks) {
  std::vector<std::int64_t> out;
  for (std::int64_t u = 0; u < units; ++u) {
    std::uint64_t z = seed + (static_cast<std::uint64_t>(r) << 32) +
                      static_cast<std::uint64_t>(u + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    out.push_back(static_cast<std::int64_t>(z % static_cast<std::uint64_t>(blocks)));
  }
  return out;
}

/// Rank r's file: its touched blocks hold its stamps, the rest is a hole (zeros); the file ends
/// with the last touched block.
Image random_offsets_image(std::uint64_t seed, int r, std::int64_t units, std::int64_t block,
                           std::int64_t blocks) {
  const auto touched = random_blocks(seed, r, units, blocks);
  std::int64_t end = 0;
  for (auto b : touched)
    end = std::max(end, (b + 1) * block);
  auto set = std::make_shared<std::vector<bool>>(static_cast<size_t>(blocks), false);
  for (auto b : touched)
    (*set)[static_cast<size_t>(b)] = true;
  return Image{end,
               [=](std::int64_t o) { return (*set)[static_cast<size_t>(o / block)] ? r : -1; }};
}

TEST_CASE("random offsets: every rank's blocks where the definition puts them, byte-exact",
          "[patterns_a][random_offsets]") {
  // 12 draws from 16 blocks: repeats are certain, so a block read or written twice is covered.
  const std::int64_t units = 12, blocks = 16;
  for (int r = 0; r < 4; ++r) {
    auto b = random_blocks(7, r, units, blocks);
    std::sort(b.begin(), b.end());
    CHECK(std::adjacent_find(b.begin(), b.end()) != b.end());
  }
  run_all_modes(
      "random_offsets", "  BufferSizes 1K\n  FileSize 16K\n  WorkUnits 12\n  Seed 7\n",
      [](const std::string &) { return true; },
      [=](const std::string &, int r) { return random_offsets_image(7, r, units, 1024, blocks); },
      {"write", "read", "re-read", "re-write"});
  // Read-modify-write flips a block's bytes once per visit, so it runs on draws without repeats
  // (checked here) from 4096 blocks.
  for (int r = 0; r < size(); ++r) {
    auto b = random_blocks(3, r, 8, 4096);
    std::sort(b.begin(), b.end());
    REQUIRE(std::adjacent_find(b.begin(), b.end()) == b.end());
  }
  run_all_modes(
      "random_offsets", "  BufferSizes 1K\n  FileSize 4M\n  WorkUnits 8\n  Seed 3\n",
      [](const std::string &) { return true; },
      [=](const std::string &, int r) { return random_offsets_image(3, r, 8, 1024, 4096); },
      {"read-modify-write"});
}

TEST_CASE("random offsets: bad directives are clear errors", "[patterns_a][random_offsets]") {
  expect_failure("random_offsets", "  BufferSizes 4K\n  FileSize 6K\n",
                 "is not a positive multiple of buffer size");
  expect_limit_error("random_offsets", "  FileSize 0\n", "FileSize");
}
