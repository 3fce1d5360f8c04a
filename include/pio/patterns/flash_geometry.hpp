#pragma once
/// Geometry of the FLASH-IO checkpoint (thesis §3.4.1, Figs. 3.11-3.12; §4.2.8): guarded blocks
/// in memory as the kernel's unk(nvar, x, y, z, block), variable-major blocks in the file. Used by
/// modules/flash_io; public so that the tests can check the memory datatype's typemap.

#include <cstdint>
#include <vector>

#include "pio/patterns/geometry.hpp"

namespace pio::patterns {

/// One FLASH-IO test: block geometry, variables, element size and blocks per rank.
struct FlashLayout {
  std::int64_t nx = 8, ny = 8, nz = 8; ///< interior cells per block (nxb, nyb, nzb)
  std::int64_t guard = 4;              ///< guard cells on each side, memory only
  std::int64_t vars = 24;              ///< variables per cell (nvar)
  std::int64_t element = 8;            ///< bytes per value (a double)
  std::int64_t blocks = 80;            ///< blocks of rank 0
  std::int64_t spread = 3;             ///< rank r has blocks + r mod spread blocks
  std::int64_t header = 0;             ///< HeaderOffset
  int ranks = 1;                       ///< processes

  /// Blocks of `rank`: n(r) = blocks + r mod spread (the kernel: 80 + r mod 3).
  std::int64_t blocks_of(int rank) const { return blocks + (spread > 1 ? rank % spread : 0); }
  /// Blocks before `rank`'s first block: P(r) = n(0) + ... + n(r-1).
  std::int64_t first_block(int rank) const;
  /// Blocks of all ranks: T = P(ranks).
  std::int64_t total_blocks() const { return first_block(ranks); }
  /// Interior cells per block: C = nx*ny*nz.
  std::int64_t cells() const { return nx * ny * nz; }
  /// Bytes of one checkpoint (one work unit) in the file: V*T*C*E.
  std::int64_t checkpoint_bytes() const { return vars * total_blocks() * cells() * element; }
  /// Transfer amount of `rank` per work unit: V*n(r)*C*E (interior cells only).
  std::int64_t transfer(int rank) const { return vars * blocks_of(rank) * cells() * element; }
  /// Bytes of one block in memory, guard cells included.
  std::int64_t memory_block_bytes() const {
    return (nx + 2 * guard) * (ny + 2 * guard) * (nz + 2 * guard) * vars * element;
  }
};

/// Thesis Figs. 3.11-3.12: guarded blocks in memory, variable-major checkpoint in the file.
class FlashGeometry : public Geometry {
public:
  /// The geometry of layout f.
  explicit FlashGeometry(const FlashLayout &f) : f_(f) {}
  /// One run per variable v: the rank's blocks of v, H + u*V*T*C*E + (v*T + P(r))*C*E.
  std::vector<Extent> extents(int rank, std::int64_t unit) const override;
  /// The [V][T] array of blocks; the rank's [V][n(r)] blocks as an MPI subarray.
  FileView view(int rank, std::int64_t unit) const override;
  /// unk(nvar, x, y, z, block) with guards; the type walks v, b, z, y, x over interior cells.
  MemoryLayout memory(int rank, std::int64_t unit) const override;

private:
  FlashLayout f_;
};

} // namespace pio::patterns
