// Config errors only a pattern module can see (a value out of range for the geometry, an
// impossible geometry, offsets beyond 2^63-1) stop the run with exit code 2 on every rank, at the
// file:line of the directive, before the block's first I/O (docs/reliability.md), and never
// leave one rank inside a collective call the others have left (HeaderOffset
// 9223372036854775807 used to deadlock in MPI_File_set_view at 2 and 4 ranks).
#include <catch2/catch.hpp>

#include <string>

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

TEST_CASE("a config error in a later block keeps what was measured and stops the run",
          "[patterns_config]") {
  TempDir dir;
  const std::vector<Block> blocks = {
      {"segmented", "write", false, true, "  BufferSizes 1K\n", dir.file("one")},
      {"simple_strided", "write", false, true, "  HeaderOffset 9223372036854775807\n",
       dir.file("two")},
      {"segmented", "write", false, true, "  BufferSizes 2K\n", dir.file("three")}};
  const std::string config = config_text(dir, blocks, true);
  const auto ran = run_config(dir, "multi", config, false);
  INFO(config << "\n" << ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    const auto &modules = ran.results["modules"];
    CHECK(ran.results.value("exit_code", -1) == 2);
    CHECK(ran.results.value("status", std::string()) == "failed");
    REQUIRE(modules.size() == 2); // the third block never ran
    CHECK(modules[0]["error"].is_null());
    CHECK(modules[0]["tests"].size() == 1);
    CHECK(modules[0]["tests"][0]["reps"].size() == 1);
    CHECK(modules[0]["tests"][0]["error"].is_null());
    // Block two opens on line 12; its HeaderOffset is line 18.
    CHECK(modules[1]["error"]["message"].get<std::string>().find("multi.conf:18: HeaderOffset") !=
          std::string::npos);
    CHECK(ran.err.find("multi.conf:18: HeaderOffset") != std::string::npos);
    return true;
  }));
  REQUIRE(all_ranks(!exists(dir.file("two")) && !exists(dir.file("three"))));
}
