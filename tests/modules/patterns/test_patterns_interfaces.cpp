// Every pattern of the engine through Interface posix (docs/reference/interfaces.md): each of the
// eight thesis patterns (one of each geometry kind: contiguous sequential, simple strided, nested
// strided, tiled, random strided, unstructured mesh, FLASH-IO, segmented) in all five temporal
// modes, independent and collective, Verify on. The file's bytes are checked against the
// Geometry's extents per rank and unit as the engine's LayoutTrace records them (every traced
// byte its owner's stamp, every other byte zero, the file ending at the last extent), and the
// same blocks run through Interface mpiio must leave identical files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "layout_checks.hpp"
#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

/// "" when the two files hold the same bytes, else where they first differ.
std::string same_bytes(const std::string &a, const std::string &b) {
  const auto x = read_bytes(a), y = read_bytes(b);
  const auto at = std::mismatch(x.begin(), x.end(), y.begin(), y.end());
  if (at.first == x.end() && at.second == y.end())
    return "";
  return a + " (" + std::to_string(x.size()) + " bytes) and " + b + " (" +
         std::to_string(y.size()) + " bytes) differ at offset " +
         std::to_string(at.first - x.begin());
}

/// MPI-IO without data sieving and collective buffering: ROMIO then writes exactly the pieces
/// of a view, as POSIX does, instead of filling the holes of a write beyond the end of file with
/// whatever its buffer held (owned bytes are exact either way; the holes must agree here).
const char *const kExactMpiIo = "  Hint romio_ds_write disable\n  Hint romio_cb_write disable\n";

/// Runs `module` with `directives` in every mode x {independent, collective} x {posix, mpiio}
/// and checks each posix file against the trace and the mpiio file of the same block.
void through_posix(const std::string &module, const std::string &directives) {
  TempDir dir;
  const std::string trace = dir.file(module + ".jsonl");
  std::vector<Block> blocks;
  std::vector<std::string> interfaces;
  for (const auto &mode : temporal_modes())
    for (const bool collective : {false, true})
      for (const std::string interface : {"posix", "mpiio"}) {
        Block b{module,
                mode,
                collective,
                true,
                directives + "  LayoutTrace \"" + trace + "\"\n  Interface " + interface + "\n" +
                    (interface == "mpiio" ? kExactMpiIo : ""),
                dir.file(module + "-" + mode + (collective ? "-coll-" : "-ind-") + interface)};
        blocks.push_back(b);
        interfaces.push_back(interface);
      }
  run_and_check(dir, module, config_text(dir, blocks), [&](const nlohmann::json &results) {
    std::string problem;
    const auto traced = read_trace(trace, &problem);
    if (!problem.empty())
      return problem;
    if (traced.size() != blocks.size())
      return "expected one traced test per block, got " + std::to_string(traced.size());
    for (size_t i = 0; i < blocks.size(); ++i) {
      const Block &b = blocks[i];
      const auto &block = results["modules"][i];
      if (block["interface"] != interfaces[i] || traced[i].test["interface"] != interfaces[i])
        return "block " + std::to_string(i) + ": interface " + block["interface"].dump() +
               ", traced " + traced[i].test["interface"].dump() + ", expected " + interfaces[i];
      if (interfaces[i] != "posix")
        continue;
      // Blocks come in pairs: posix, then the same through mpiio.
      const std::string &mpiio_file = blocks[i + 1].file;
      const bool per_process = traced[i].test["file"] == "file-per-process";
      for (int r = 0; r < (per_process ? size() : 1) && problem.empty(); ++r) {
        const std::string suffix = per_process ? "." + std::to_string(r) : "";
        problem =
            compare_file(b.file + suffix, traced_image(traced[i], per_process ? r : -1), b.mode);
        if (problem.empty())
          problem = same_bytes(b.file + suffix, mpiio_file + suffix);
      }
      if (!problem.empty())
        return b.mode + (b.collective ? " collective: " : " independent: ") + problem;
    }
    return problem;
  });
}

/// Tiles of a P-rank grid: 1x1, 2x1, 2x2.
std::string tile_grid() { return size() == 4 ? "2x2" : std::to_string(size()) + "x1"; }

} // namespace

TEST_CASE("posix: sequential (contiguous, a file per process for writes)", "[interfaces]") {
  through_posix("sequential", "  BufferSizes 1K\n  WorkUnits 4\n  HeaderOffset 16\n"
                              "  Interleave 1\n");
}

TEST_CASE("posix: simple strided", "[interfaces]") {
  through_posix("simple_strided",
                "  BufferSizes 2K\n  StripSize 512\n  WorkUnits 2\n  HeaderOffset 16\n");
}

TEST_CASE("posix: nested strided, with gaps between strips and tiles", "[interfaces]") {
  through_posix("nested_strided", "  BufferSizes 1K\n  InnerCount 4\n  OuterCount 2\n"
                                  "  InnerStride 1K\n  OuterStride 5K\n  WorkUnits 2\n"
                                  "  HeaderOffset 100\n");
}

TEST_CASE("posix: tiled", "[interfaces]") {
  through_posix("tiled", "  TileSizes 5x3\n  Tiles " + tile_grid() +
                             "\n  ElementSize 4\n  WorkUnits 2\n  HeaderOffset 100\n");
}

TEST_CASE("posix: random strided", "[interfaces]") {
  through_posix("random_strided", "  StripBounds 100-300\n  Seed 7\n  WorkUnits 3\n"
                                  "  HeaderOffset 64\n");
}

TEST_CASE("posix: unstructured mesh (strided placement)", "[interfaces]") {
  through_posix("unstructured_mesh", "  Vertices 7\n  ValuesPerVertex 2\n  Placement strided\n"
                                     "  ChunkVertices 3\n  WorkUnits 2\n  HeaderOffset 10\n");
}

TEST_CASE("posix: FLASH-IO (guard cells: non-contiguous memory under MPI-IO)", "[interfaces]") {
  through_posix("flash_io", "  BlockSizes 4x3x2\n  Blocks 2\n  GuardCells 1\n  Variables 3\n"
                            "  WorkUnits 2\n  HeaderOffset 64\n");
}

TEST_CASE("posix: segmented, reverse assignment", "[interfaces]") {
  through_posix("segmented", "  BufferSizes 512\n  WorkUnits 3\n  HeaderOffset 10\n"
                             "  Assignment reverse\n");
}
