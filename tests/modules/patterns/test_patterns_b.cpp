// Tests of the tiled, FLASH-IO and unstructured mesh pattern modules (thesis §3.4.1,
// Figs. 3.10-3.12; temporal modes §3.4.2; results §4.2.7-4.2.9).
//
// Every module runs in all five temporal modes (at 4 ranks write and read: modes_at_this_size),
// independent and collective, with and without a file view, with Verify on and KeepFiles on;
// afterwards the file image is compared byte for byte against owners.hpp, an independent
// computation (offset -> owning rank) written from the thesis definitions, not with the modules'
// geometry code. The FLASH-IO memory datatype is checked against the kernel's unk(nvar, x, y, z,
// block) addressing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "owners.hpp"
#include "pattern_checks.hpp"
#include "pio/patterns/flash_geometry.hpp"

using namespace pio::test; // the suites' shared checks and MPI test helpers

namespace {

/// The tile grid the tests ask for: P x 1 for 1 and 2 ranks, 2 x 2 for 4.
void grid(std::int64_t *tiles_x, std::int64_t *tiles_y) {
  *tiles_x = size() == 4 ? 2 : size();
  *tiles_y = size() == 4 ? 2 : 1;
}

} // namespace

// --- tiled (Fig. 3.10) ---------------------------------------------------------------------------

// 4 ranks: the tile grid is 2x2, the only grid with tiles above and beside each other.
TEST_CASE("tiled: every temporal mode, image byte-exact", "[patterns_b][tiled][4ranks]") {
  std::int64_t tx = 0, ty = 0;
  grid(&tx, &ty);
  // Tiles of 5x3 elements of 4 bytes (rows of 20 bytes, not aligned to anything), 2 datasets
  // (work units) after a 100-byte header.
  const std::string d = "  TileSizes 5x3\n  Tiles " + std::to_string(tx) + "x" +
                        std::to_string(ty) + "\n  ElementSize 4\n  WorkUnits 2\n" +
                        "  HeaderOffset 100\n";
  run_all_modes("tiled", d, tiled_image(100, 2, tx, ty, 5, 3, 4));
}

// 4 ranks: MPI_Dims_create makes the 2x2 grid.
TEST_CASE("tiled: a sweep of tile sizes and the auto grid", "[patterns_b][tiled][4ranks]") {
  TempDir dir;
  Block b{"tiled", "write", true, true, "  TileSizes 4 8x2\n  ElementSize 8\n", dir.file("t")};
  run_and_check(dir, "one", config_text(dir, {b}), [&](const nlohmann::json &results) {
    const auto &tests = results["modules"][0]["tests"];
    // MPI_Dims_create: 1 -> 1x1, 2 -> 2x1, 4 -> 2x2.
    const std::string tiles = size() == 4 ? "2x2" : std::to_string(size()) + "x1";
    if (tests.size() != 2 || tests[0]["buffer_size"] != 4 * 4 * 8 ||
        tests[1]["buffer_size"] != 8 * 2 * 8 || tests[0]["params"].value("tiles", "") != tiles)
      return "unexpected tests: " + tests.dump();
    std::int64_t tx = 0, ty = 0;
    grid(&tx, &ty);
    // the last test (8x2) leaves the file
    return compare_file(dir.file("t"), tiled_image(0, 1, tx, ty, 8, 2, 8), "write");
  });
}

// 4 ranks: only the 2x2 grid has neighbours in y to overlap.
TEST_CASE("tiled: overlapping tiles are read", "[patterns_b][tiled][4ranks]") {
  for (const char *mode : {"read", "re-read"}) {
    TempDir dir;
    Block b{"tiled", mode, true, true, "  TileSizes 6x4\n  Overlap 2x1\n", dir.file("o")};
    INFO(mode);
    run_and_check(dir, "one", config_text(dir, {b}, false),
                  [](const nlohmann::json &) { return std::string(); });
  }
}

// mpi-tile-io sets the x and y overlaps independently: 1x0, 0x1 and 0x0 are valid. The file the
// read modes prepare is checked byte for byte; elements two tiles share were prepared by both
// ranks and are not checked (which rank wrote them last is unspecified).
// 4 ranks: only the 2x2 grid has neighbours in both x and y.
TEST_CASE("tiled: overlap in x only or in y only, image byte-exact",
          "[patterns_b][tiled][4ranks]") {
  std::int64_t gx = 0, gy = 0;
  grid(&gx, &gy);
  for (const auto &overlap : std::vector<std::vector<std::int64_t>>{{1, 0}, {0, 1}, {0, 0}}) {
    const std::string text = std::to_string(overlap[0]) + "x" + std::to_string(overlap[1]);
    INFO("Overlap " << text);
    TempDir dir;
    std::vector<Block> blocks;
    for (const char *mode : {"read", "re-read"})
      for (const bool collective : {false, true})
        for (const bool view : {true, false})
          blocks.push_back({"tiled", mode, collective, view,
                            "  TileSizes 5x3\n  Tiles " + std::to_string(gx) + "x" +
                                std::to_string(gy) + "\n  ElementSize 4\n  WorkUnits 2\n" +
                                "  HeaderOffset 100\n  Overlap " + text + "\n",
                            dir.file(std::string(mode) + (collective ? "-coll" : "-ind") +
                                     (view ? "-view" : "-noview"))});
    const Image img = tiled_overlap_image(100, 2, gx, gy, 5, 3, overlap[0], overlap[1], 4);
    run_and_check(dir, "o", config_text(dir, blocks, false), [&](const nlohmann::json &results) {
      const auto &params = results["modules"][0]["tests"][0]["params"];
      const std::string dataset = std::to_string(gx * 5 - (gx - 1) * overlap[0]) + "x" +
                                  std::to_string(gy * 3 - (gy - 1) * overlap[1]);
      if (params.value("overlap", "") != text || params.value("dataset", "") != dataset)
        return "params " + params.dump() + ", expected overlap " + text + ", dataset " + dataset;
      for (const auto &b : blocks) {
        const std::string problem = compare_file(b.file, img, b.mode);
        if (!problem.empty())
          return problem;
      }
      return std::string();
    });
  }
}

TEST_CASE("tiled: bad directives are clear errors", "[patterns_b][tiled]") {
  expect_failure("tiled", "  Tiles 3x3\n", "makes 9 tiles but the test runs on");
  expect_failure("tiled", "  TileSizes 4y4\n", "TileSizes '4y4' is not of the form XxY");
  expect_failure("tiled", "  TileSizes 0x4\n", "has an extent that is not positive");
  expect_failure("tiled", "  TileSizes 4\n  Overlap 1\n", "Overlap with Mode write");
  expect_failure("tiled", "  TileSizes 4\n  Overlap 1\n", "Overlap with Verify on", "read");
  expect_failure("tiled", "  TileSizes 4\n  Overlap 4x1\n", "is not smaller than tile 4x4", "read",
                 false);
  expect_limit_error("tiled", "  WorkUnits 0\n", "WorkUnits");
}

// --- FLASH-IO (Figs. 3.11-3.12) ------------------------------------------------------------------

// 4 ranks: rank r holds 2 + r mod 3 blocks: rank 2 the most, rank 3 wrapping to 2.
TEST_CASE("flash_io: every temporal mode, image byte-exact", "[patterns_b][flash][4ranks]") {
  // 4x3x2-cell blocks (C = 24), 1 guard cell, 3 variables, 2 + rank mod 3 blocks, 2 checkpoints
  // after a 64-byte header.
  run_all_modes("flash_io",
                "  BlockSizes 4x3x2\n  Blocks 2\n  GuardCells 1\n  Variables 3\n"
                "  WorkUnits 2\n  HeaderOffset 64\n",
                flash_image(64, 2, 2, 3, 24, 3, 8, size()));
}

// 4 ranks: the minimum, maximum and mean over 2 + r mod 3 blocks differ from 2 ranks'.
TEST_CASE("flash_io: the transfer amount is reported", "[patterns_b][flash][4ranks]") {
  TempDir dir;
  const std::string d = "  BlockSizes 2\n  Blocks 1 3\n  GuardCells 2\n  Variables 2\n";
  Block b{"flash_io", "write", false, true, d, dir.file("f")};
  run_and_check(dir, "one", config_text(dir, {b}), [&](const nlohmann::json &results) {
    const auto &tests = results["modules"][0]["tests"];
    for (int k = 0; k < 2; ++k) {
      const std::int64_t blocks = k == 0 ? 1 : 3, amount = 8 * 2 * 8; // C*V*E per block
      std::int64_t total = 0, hi = 0;
      for (int r = 0; r < size(); ++r) {
        total += (blocks + r % 3) * amount;
        hi = std::max<std::int64_t>(hi, (blocks + r % 3) * amount);
      }
      const auto &t = tests[static_cast<size_t>(k)];
      if (t["buffer_size"] != (total + size() / 2) / size() ||
          t["params"].value("transfer_amount_min", "") != std::to_string(blocks * amount) ||
          t["params"].value("transfer_amount_max", "") != std::to_string(hi) ||
          t["params"].value("buffer_size_means", "").find("transfer amount") == std::string::npos)
        return "unexpected test " + t.dump();
    }
    return compare_file(dir.file("f"), flash_image(0, 1, 3, 3, 8, 2, 8, size()), "write");
  });
}

// 4 ranks: rank 2 holds the most blocks (2 + r mod 3).
TEST_CASE("flash_io: the memory datatype is unk(nvar, x, y, z, block) without guard cells",
          "[patterns_b][flash][4ranks]") {
  // Fig. 3.11 / the FLASH-IO kernel's Fortran array: variable fastest, then x, y, z with g guard
  // cells on each side, then the block. Every memory element holds its own unk index; packing
  // with the memory type must yield the interior elements in file order v, b, z, y, x.
  pio::patterns::FlashLayout f;
  f.nx = 3, f.ny = 2, f.nz = 2, f.guard = 1, f.vars = 2, f.element = 8, f.blocks = 2;
  f.spread = 3, f.ranks = size();
  const int r = rank();
  const std::int64_t gx = f.nx + 2, gy = f.ny + 2, gz = f.nz + 2, nb = f.blocks_of(r);
  pio::patterns::FlashGeometry geometry(f);
  const auto mem = geometry.memory(r, 0);
  bool ok = mem.buffer_bytes == nb * gz * gy * gx * f.vars * 8;
  std::vector<std::int64_t> unk(static_cast<size_t>(nb * gz * gy * gx * f.vars));
  for (size_t i = 0; i < unk.size(); ++i)
    unk[i] = static_cast<std::int64_t>(i);
  std::vector<std::int64_t> packed(static_cast<size_t>(f.vars * nb * f.cells()), -1);
  int pos = 0, packed_size = 0;
  MPI_Pack_size(1, mem.type.get(), MPI_COMM_SELF, &packed_size);
  ok = ok && packed_size == static_cast<int>(packed.size() * 8);
  if (ok)
    MPI_Pack(unk.data(), 1, mem.type.get(), packed.data(), packed_size, &pos, MPI_COMM_SELF);
  size_t k = 0;
  for (std::int64_t v = 0; v < f.vars && ok; ++v)
    for (std::int64_t b = 0; b < nb; ++b)
      for (std::int64_t z = 1; z <= f.nz; ++z)
        for (std::int64_t y = 1; y <= f.ny; ++y)
          for (std::int64_t x = 1; x <= f.nx; ++x)
            ok = ok && packed[k++] == (((b * gz + z) * gy + y) * gx + x) * f.vars + v;
  REQUIRE(all_ranks(ok && k == packed.size()));
}

TEST_CASE("flash_io: bad directives are clear errors", "[patterns_b][flash]") {
  expect_failure("flash_io", "  BlockSizes 4x4\n", "BlockSizes '4x4' has 2 extents, expected 3");
  expect_limit_error("flash_io", "  Blocks 0\n", "Blocks");
  expect_limit_error("flash_io", "  GuardCells -1\n", "GuardCells");
  expect_limit_error("flash_io", "  Variables 0\n", "Variables");
}

// --- unstructured mesh (§3.4.1) ------------------------------------------------------------------

// 4 ranks: 7 vertices split 2, 2, 2, 1: unequal shares after equal ones.
TEST_CASE("unstructured_mesh: segmented, every temporal mode, image byte-exact",
          "[patterns_b][mesh][4ranks]") {
  run_all_modes("unstructured_mesh",
                "  Vertices 7\n  ValuesPerVertex 2\n  WorkUnits 2\n  HeaderOffset 10\n",
                mesh_image(false, 10, 2, 7, 2, 1, size()));
}

// 4 ranks: chunks of 3 vertices go round 4 ranks, the last round short.
TEST_CASE("unstructured_mesh: strided, every temporal mode, image byte-exact",
          "[patterns_b][mesh][4ranks]") {
  // Chunks of 3 vertices: 7 = 3 + 3 + a last round of 1-vertex chunks.
  run_all_modes("unstructured_mesh",
                "  Vertices 7\n  ValuesPerVertex 2\n  Placement strided\n  ChunkVertices 3\n"
                "  WorkUnits 2\n  HeaderOffset 10\n",
                mesh_image(true, 10, 2, 7, 2, 3, size()));
}

TEST_CASE("unstructured_mesh: a sweep of vertices and values", "[patterns_b][mesh]") {
  TempDir dir;
  const std::string d =
      "  Vertices 4 8\n  ValuesPerVertex 0 5\n  Placement strided\n  ChunkVertices 4\n";
  Block b{"unstructured_mesh", "write", true, false, d, dir.file("m")};
  run_and_check(dir, "one", config_text(dir, {b}), [&](const nlohmann::json &results) {
    const auto &tests = results["modules"][0]["tests"];
    const std::int64_t expect[4] = {4 * 24, 8 * 24, 4 * 64, 8 * 64};
    for (size_t k = 0; k < 4; ++k)
      if (tests.size() != 4 || tests[k]["buffer_size"] != expect[k])
        return "unexpected tests: " + tests.dump();
    return compare_file(dir.file("m"), mesh_image(true, 0, 1, 8, 5, 4, size()), "write");
  });
}

TEST_CASE("unstructured_mesh: bad directives are clear errors", "[patterns_b][mesh]") {
  expect_failure("unstructured_mesh", "  Placement diagonal\n", "diagonal");
  expect_limit_error("unstructured_mesh", "  Vertices 0\n", "Vertices");
  expect_limit_error("unstructured_mesh", "  ChunkVertices 0\n", "ChunkVertices");
  expect_limit_error("unstructured_mesh", "  ValuesPerVertex -1\n", "ValuesPerVertex");
}
