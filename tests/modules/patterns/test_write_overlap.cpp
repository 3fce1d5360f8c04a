// The pattern engine refuses a Geometry whose ranks write the same bytes of one work unit
// (docs/guides/writing-a-module.md, "Overlapping ranks") before any I/O, naming the module, the
// test, the unit, the ranks and the byte ranges; read modes may share bytes. The geometry is an
// out-of-tree-style test module (shifted_segments_module.cpp) whose neighbouring ranks share
// Shift bytes of every unit.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "mpi_test.hpp"
#include "write_overlap.hpp" // the engine's own check (modules/patterns)

using namespace pio::test;

namespace {

std::string config(const TempDir &dir, const std::string &mode, int shift, bool verify = false) {
  return "TestFile " + dir.file("tf") + "\nVerify " + (verify ? "on" : "off") +
         "\n<ap_module>\nModuleName shifted_segments\nMode " + mode + "\nBlockSize 4K\nShift " +
         std::to_string(shift) + "\n</ap_module>\n";
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("a geometry whose ranks write the same bytes fails before any I/O, named",
          "[write_overlap]") {
  for (const std::string mode : {"write", "read-modify-write", "re-write"}) {
    INFO("Mode " << mode);
    TempDir dir;
    const auto ran = run_config(dir, "shift", config(dir, mode, 1, true));
    if (pio::test::size() == 1) { // one rank shares nothing
      REQUIRE(all_ranks(ran.exit_code == 0));
      continue;
    }
    REQUIRE(all_ranks(ran.exit_code == 1));
    // Not one byte of a test file: the block failed in init_module, before its first file.
    REQUIRE(all_ranks(!std::filesystem::exists(dir.file("tf")) ||
                      std::filesystem::file_size(dir.file("tf")) == 0));
    REQUIRE(on_root([&] {
      const auto &blocks = ran.run.modules;
      REQUIRE(blocks.size() == 1);
      REQUIRE(blocks[0].error.has_value());
      REQUIRE(blocks[0].tests.empty());
      const std::string &m = blocks[0].error->message;
      CHECK(has(m, "the geometry of module shifted_segments, test '4K', has two ranks write the "
                   "same bytes (Mode " +
                       mode +
                       "): in work unit 0 rank 0's bytes [0, 4096) and "
                       "rank 1's bytes [4095, 8191) overlap in [4095, 4096) (1 byte); nothing was "
                       "written"));
      CHECK(has(ran.err, "ranks may share bytes only in Mode read and re-read"));
      return true;
    }));
  }
}

TEST_CASE("a larger shift names the whole shared range", "[write_overlap]") {
  if (pio::test::size() == 1)
    return;
  TempDir dir;
  const auto ran = run_config(dir, "shift", config(dir, "write", 100));
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.at(0).error.has_value());
    CHECK(has(ran.run.modules[0].error->message,
              "rank 0's bytes [0, 4096) and rank 1's bytes [3996, 8092) overlap in [3996, 4096) "
              "(100 bytes)"));
    return true;
  }));
}

TEST_CASE("read modes may share bytes, and a geometry without overlap writes", "[write_overlap]") {
  for (const std::string mode : {"read", "re-read"}) {
    INFO("Mode " << mode);
    TempDir dir;
    const auto ran = run_config(dir, "shared", config(dir, mode, 1));
    REQUIRE(all_ranks(ran.exit_code == 0));
  }
  TempDir dir;
  const auto ran = run_config(dir, "apart", config(dir, "write", 0, true), true);
  REQUIRE(all_ranks(ran.exit_code == 0));
  // 2 units x every rank x 4 KiB, each rank's own block.
  REQUIRE(all_ranks(std::filesystem::file_size(dir.file("tf")) ==
                    static_cast<std::uintmax_t>(2 * pio::test::size() * 4096)));
}

namespace {

/// A geometry from a table: units x ranks lists of extents.
class Table : public pio::patterns::Geometry {
public:
  explicit Table(std::vector<std::vector<std::vector<pio::patterns::Extent>>> t)
      : t_(std::move(t)) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return t_.at(static_cast<size_t>(unit)).at(static_cast<size_t>(rank));
  }

private:
  std::vector<std::vector<std::vector<pio::patterns::Extent>>> t_;
};

} // namespace

TEST_CASE("the overlap sweep finds a shared range behind a rank's own overlap", "[write_overlap]") {
  using pio::patterns::find_rank_overlap;
  // Rank 0 overlaps itself (one writer, no race); rank 1 lies inside rank 0's second extent.
  const Table behind({{{{0, 10}, {2, 48}}, {{20, 10}}}});
  CHECK(find_rank_overlap(behind, 2, 1).value_or("") ==
        "in work unit 0 rank 0's bytes [2, 50) and rank 1's bytes [20, 30) overlap in [20, 30) "
        "(10 bytes)");
  const Table own({{{{0, 10}, {5, 10}}, {{15, 5}}}});
  CHECK_FALSE(find_rank_overlap(own, 2, 1));
  // Touching is not overlapping; zero-length extents share nothing; unit 1 is checked too.
  const Table later({{{{0, 8}}, {{8, 8}, {3, 0}}}, {{{16, 8}}, {{23, 8}}}});
  CHECK(find_rank_overlap(later, 2, 2).value_or("") ==
        "in work unit 1 rank 0's bytes [16, 24) and rank 1's bytes [23, 31) overlap in [23, 24) "
        "(1 byte)");
  // The bound: with room for the first unit's extents only, unit 1 is not reached.
  CHECK_FALSE(find_rank_overlap(later, 2, 2, 3));
}
