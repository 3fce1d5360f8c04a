#pragma once
/// Who owns which file byte in the tiled, FLASH-IO and unstructured mesh patterns, computed here
/// from the thesis definitions (§3.4.1, Figs. 3.10-3.12) as inverse maps offset -> rank, without
/// the modules' geometry code, so that the tests compare two independent derivations.

#include <cstdint>
#include <vector>

#include "pattern_checks.hpp"

namespace pio::test {

/// Tiled (Fig. 3.10), no overlap: `units` datasets of (tiles_x*tx) x (tiles_y*ty) elements of
/// `e` bytes after `header`, row-major; rank r holds tile column r mod tiles_x, tile row r div
/// tiles_x. Element (row, col) belongs to tile (col div tx, row div ty).
inline Image tiled_image(std::int64_t header, std::int64_t units, std::int64_t tiles_x,
                         std::int64_t tiles_y, std::int64_t tx, std::int64_t ty, std::int64_t e) {
  const std::int64_t width = tiles_x * tx, dataset = width * tiles_y * ty * e;
  auto owner = [=](std::int64_t o) {
    if (o < header || o >= header + units * dataset)
      return -1;
    const std::int64_t element = (o - header) % dataset / e;
    const std::int64_t row = element / width, col = element % width;
    return static_cast<int>((row / ty) * tiles_x + col / tx);
  };
  return {header + units * dataset, owner};
}

/// Tiled with overlap (mpi-tile-io's overlap-x and overlap-y, independent): tiles of tx x ty
/// elements whose starts are tx-ox columns and ty-oy rows apart, so the dataset is
/// (tiles_x*tx - (tiles_x-1)*ox) x (tiles_y*ty - (tiles_y-1)*oy) elements. An element inside
/// one tile belongs to it; one inside two or more was prepared by several ranks (unspecified).
inline Image tiled_overlap_image(std::int64_t header, std::int64_t units, std::int64_t tiles_x,
                                 std::int64_t tiles_y, std::int64_t tx, std::int64_t ty,
                                 std::int64_t ox, std::int64_t oy, std::int64_t e) {
  const std::int64_t width = tiles_x * tx - (tiles_x - 1) * ox;
  const std::int64_t height = tiles_y * ty - (tiles_y - 1) * oy;
  const std::int64_t dataset = width * height * e;
  // The tiles (along one axis) whose [start, start + extent) holds coordinate c.
  auto tiles_at = [](std::int64_t c, std::int64_t tiles, std::int64_t extent, std::int64_t step) {
    std::vector<std::int64_t> out;
    for (std::int64_t t = 0; t < tiles; ++t)
      if (t * step <= c && c < t * step + extent)
        out.push_back(t);
    return out;
  };
  auto owner = [=](std::int64_t o) {
    if (o < header || o >= header + units * dataset)
      return -1;
    const std::int64_t element = (o - header) % dataset / e;
    const auto cols = tiles_at(element % width, tiles_x, tx, tx - ox);
    const auto rows = tiles_at(element / width, tiles_y, ty, ty - oy);
    if (cols.size() != 1 || rows.size() != 1)
      return kUnspecified;
    return static_cast<int>(rows[0] * tiles_x + cols[0]);
  };
  return {header + units * dataset, owner};
}

/// FLASH-IO checkpoint (Fig. 3.12): `units` checkpoints after `header`; each holds, for every
/// one of `vars` variables, the blocks of all ranks in rank order (rank r has blocks + r mod
/// spread of them), each block `cells` interior cells of `e` bytes.
inline Image flash_image(std::int64_t header, std::int64_t units, std::int64_t blocks,
                         std::int64_t spread, std::int64_t cells, std::int64_t vars, std::int64_t e,
                         int procs) {
  std::vector<int> block_owner; // global block -> rank
  for (int r = 0; r < procs; ++r)
    for (std::int64_t b = 0; b < blocks + (spread > 1 ? r % spread : 0); ++b)
      block_owner.push_back(r);
  const std::int64_t block_bytes = cells * e;
  const std::int64_t total = static_cast<std::int64_t>(block_owner.size());
  const std::int64_t checkpoint = vars * total * block_bytes;
  auto owner = [=](std::int64_t o) {
    if (o < header || o >= header + units * checkpoint)
      return -1;
    const std::int64_t global_block = (o - header) / block_bytes % total;
    return block_owner[static_cast<size_t>(global_block)];
  };
  return {header + units * checkpoint, owner};
}

/// Unstructured mesh (§3.4.1): `units` meshes of procs*n vertex records of (3+values)*8 bytes
/// after `header`. Segmented: record i is vertex i, owned by i div n. Strided: rounds of one
/// chunk per rank in rank order; chunks hold k vertices, except that when k does not divide n
/// the last round's chunks hold n mod k.
inline Image mesh_image(bool strided, std::int64_t header, std::int64_t units, std::int64_t n,
                        std::int64_t values, std::int64_t k, int procs) {
  const std::int64_t record = (3 + values) * 8, mesh = procs * n * record;
  const std::int64_t full_rounds = n / k, tail = n % k;
  auto owner = [=](std::int64_t o) {
    if (o < header || o >= header + units * mesh)
      return -1;
    const std::int64_t i = (o - header) % mesh / record; // record index within the mesh
    if (!strided)
      return static_cast<int>(i / n);
    if (i < full_rounds * procs * k)
      return static_cast<int>(i % (procs * k) / k);
    return static_cast<int>((i - full_rounds * procs * k) / tail);
  };
  return {header + units * mesh, owner};
}

} // namespace pio::test
