// Config errors only a pattern module can see (a value out of range for the geometry, an
// impossible geometry, offsets beyond 2^63-1) stop the run with exit code 2 on every rank, at the
// file:line of the directive, before any block's first I/O (the pre-flight check of
// docs/reference/reliability.md), and never leave one rank inside a collective call the others have
// left (HeaderOffset 9223372036854775807 used to deadlock in MPI_File_set_view at 2 and 4 ranks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test; // the suites' shared checks and MPI test helpers

TEST_CASE("a HeaderOffset that overflows the file's offsets is a config error, no hang",
          "[patterns_config]") {
  for (const char *mode : {"write", "read"})
    for (const char *module : {"simple_strided", "nested_strided", "random_strided", "sequential",
                               "segmented", "tiled", "flash_io", "unstructured_mesh"}) {
      INFO(module << " " << mode);
      expect_config_error(module, "  HeaderOffset 9223372036854775807\n", "HeaderOffset", 10, mode);
    }
  // Just below the limit, the file of 16 units of 64K still ends beyond 2^63-1.
  expect_config_error("simple_strided", "  HeaderOffset 9223372036853727232\n", "HeaderOffset");
}

TEST_CASE("geometry products beyond 2^63-1 name the directive at fault", "[patterns_config]") {
  // 16 units x a 2^62-byte stride: WorkUnits keeps its default, so the ModuleName line.
  expect_config_error("simple_strided", "  Stride 4611686018427387904\n", "WorkUnits", 5);
  expect_config_error("nested_strided", "  OuterCount 4611686018427387904\n", "OuterCount");
  expect_config_error("segmented", "  BufferSizes 4611686018427387904\n", "BufferSizes");
  expect_config_error("sequential", "  FileSize 8589934591G\n  HeaderOffset 1G\n", "HeaderOffset",
                      11);
  expect_config_error("random_strided", "  StripBounds 1-4611686018427387904\n", "StripBounds");
  expect_config_error("random_strided", "  WorkUnits 100000000\n", "WorkUnits");
  expect_config_error("tiled", "  TileSizes 3037000500\n", "TileSizes");
  expect_config_error("tiled", "  TileSizes 4\n  ElementSize 1152921504606846976\n", "ElementSize",
                      11);
  expect_config_error("flash_io", "  Blocks 9223372036854775807\n", "Blocks");
  expect_config_error("flash_io", "  GuardCells 4611686018427387904\n", "GuardCells");
  expect_config_error("unstructured_mesh", "  ValuesPerVertex 9223372036854775807\n",
                      "ValuesPerVertex");
  expect_config_error("unstructured_mesh", "  Vertices 1152921504606846976\n", "Vertices");
}

TEST_CASE("impossible geometries are config errors at their directive", "[patterns_config]") {
  expect_config_error("simple_strided", "  StripSize 3K\n  BufferSizes 4K\n", "StripSize");
  expect_config_error("nested_strided", "  InnerStride 8K\n  OuterStride 4K\n", "InnerStride");
  expect_config_error("nested_strided", "  BufferSizes 1001\n", "BufferSizes");
  expect_config_error("sequential", "  FileSize 3K\n  BufferSizes 2K\n", "FileSize");
  expect_config_error("random_strided", "  StripBounds 4K-2K\n", "StripBounds");
  expect_config_error("tiled", "  Tiles 3x3\n", "Tiles");
  expect_config_error("tiled", "  TileSizes 0x4\n", "TileSizes");
  expect_config_error("tiled", "  Overlap 1x1\n", "Overlap"); // Mode write
  expect_config_error("tiled", "  Overlap -1x0\n", "Overlap", 10, "read", false);
  expect_config_error("flash_io", "  BlockSizes 8x8\n", "BlockSizes");
}

namespace {

/// The names in dir, sorted.
std::vector<std::string> names_in(const TempDir &dir) {
  std::vector<std::string> names;
  for (const auto &e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

TEST_CASE("a config error in the last block stops the run before the first block's I/O",
          "[patterns_config]") {
  // The pre-flight check runs every block's init_module before any I/O
  // (docs/reference/reliability.md): the first two blocks would write their files, the last has an
  // impossible geometry.
  TempDir dir;
  std::vector<Block> blocks = {
      {"segmented", "write", false, true, "  BufferSizes 1K\n", dir.file("one")},
      {"segmented", "write", false, true, "  BufferSizes 2K\n", dir.file("two")},
      {"simple_strided", "write", false, true, "  StripSize 3K\n  BufferSizes 4K\n",
       dir.file("three")}};
  const std::string where = "/multi.conf:26: StripSize";
  const std::string config = config_text(dir, blocks, true);
  const auto ran = run_config(dir, "multi", config, false);
  INFO(config << "\n" << ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(all_ranks(rank() != 0 || (ran.err.find("pio-harness: error: config: ") == 0 &&
                                    ran.err.find(where) != std::string::npos &&
                                    ran.err.find("(fix: ") != std::string::npos)));
  // No results file (not even its header), no test file, no owner record: nothing but the config.
  REQUIRE(all_ranks(ran.results.is_null()));
  REQUIRE(all_ranks(names_in(dir) == std::vector<std::string>{"multi.conf"}));

  // --check finds it too, with the same message.
  pio::harness::RunOptions check;
  check.check_only = true;
  const auto checked = run_config_with(dir, "multi", config, check);
  INFO(checked.out << checked.err);
  REQUIRE(all_ranks(checked.exit_code == 2));
  REQUIRE(all_ranks(rank() != 0 || checked.err.find(where) != std::string::npos));
  REQUIRE(all_ranks(names_in(dir) == std::vector<std::string>{"multi.conf"}));

  // Without the bad block, the same config checks clean and runs.
  blocks.pop_back();
  const std::string valid = config_text(dir, blocks, true);
  const auto valid_check = run_config_with(dir, "valid", valid, check);
  REQUIRE(all_ranks(valid_check.exit_code == 0));
  REQUIRE(all_ranks(rank() != 0 || valid_check.out.find("2 module blocks, each checked by its "
                                                        "module") != std::string::npos));
  const auto valid_run = run_config(dir, "valid", valid, false);
  INFO(valid_run.out << valid_run.err);
  REQUIRE(all_ranks(valid_run.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(result_errors(valid_run.results).empty());
    return valid_run.results.at("modules").size() == 2 && result_errors(valid_run.results).empty();
  }));
  REQUIRE(all_ranks(exists(dir.file("one")) && exists(dir.file("two")))); // KeepFiles on
}

TEST_CASE("the pre-flight check runs sweep and Processes blocks on their own ranks",
          "[patterns_config]") {
  // Tiles 2x1 fits a run of 2 but not the 1 rank the block runs on; the sweep's first value
  // fits. The error is at the Sweep line, whatever the run's size; idle ranks wait, no hang.
  TempDir dir;
  const std::vector<Block> blocks = {
      {"segmented", "write", false, true, "  BufferSizes 1K\n", dir.file("one")},
      {"tiled", "write", false, true, "  Processes 1\n  Sweep Tiles 1x1 2x1\n", dir.file("two")}};
  const std::string config = config_text(dir, blocks, true);
  const auto ran = run_config(dir, "procs", config, false);
  INFO(config << "\n" << ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(all_ranks(rank() != 0 || (ran.err.find("/procs.conf:19: Tiles") != std::string::npos &&
                                    ran.err.find("runs on 1 processes") != std::string::npos)));
  REQUIRE(all_ranks(names_in(dir) == std::vector<std::string>{"procs.conf"}));
}
