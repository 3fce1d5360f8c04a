// FLASH-IO checkpoint geometry: thesis §3.4.1 "Flash I/O Kernel", Fig. 3.11 (memory) and
// Fig. 3.12 (file); see modules/flash_io/flash_io.cpp for the formulas.
#include "pio/patterns/flash_geometry.hpp"

#include <mpi.h>

#include "pio/patterns/byte_types.hpp"
#include "pio/patterns/tile_dims.hpp"

namespace pio::patterns {

namespace {

/// An uncommitted hvector of `count` copies of `of`, `stride` bytes apart.
Datatype hvector(std::int64_t count, std::int64_t stride, const Datatype &of) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_create_hvector(checked_int(count, "FLASH-IO datatype count"), 1,
                                    static_cast<MPI_Aint>(stride), of.get(), &t),
            "MPI_Type_create_hvector");
  return Datatype(t, false);
}

} // namespace

std::int64_t FlashLayout::first_block(int rank) const {
  std::int64_t p = 0;
  for (int q = 0; q < rank; ++q)
    p += blocks_of(q);
  return p;
}

std::vector<Extent> FlashGeometry::extents(int rank, std::int64_t unit) const {
  std::vector<Extent> out;
  const std::int64_t T = f_.total_blocks(), CE = f_.cells() * f_.element;
  const std::int64_t base = f_.header + unit * f_.checkpoint_bytes();
  for (std::int64_t v = 0; v < f_.vars; ++v)
    out.push_back({base + (v * T + f_.first_block(rank)) * CE, f_.blocks_of(rank) * CE});
  return out;
}

FileView FlashGeometry::view(int rank, std::int64_t unit) const {
  const int sizes[2] = {checked_int(f_.vars, "Variables"),
                        checked_int(f_.total_blocks(), "total blocks")};
  const int subsizes[2] = {sizes[0], static_cast<int>(f_.blocks_of(rank))};
  const int starts[2] = {0, static_cast<int>(f_.first_block(rank))};
  Datatype block = contiguous_bytes(f_.cells() * f_.element);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, block.get(), &t),
            "MPI_Type_create_subarray");
  return {f_.header + unit * f_.checkpoint_bytes(), Datatype(t)};
}

MemoryLayout FlashGeometry::memory(int rank, std::int64_t) const {
  const std::int64_t E = f_.element, g = f_.guard;
  const std::int64_t gx = f_.nx + 2 * g, gy = f_.ny + 2 * g, gz = f_.nz + 2 * g;
  const std::int64_t cell = f_.vars * E; // all variables of one cell, contiguous in unk
  Datatype value = contiguous_bytes(E);
  Datatype row = hvector(f_.nx, cell, value);            // x: one value per cell
  Datatype plane = hvector(f_.ny, gx * cell, row);       // y: rows of the guarded block
  Datatype cube = hvector(f_.nz, gy * gx * cell, plane); // z: planes of the guarded block
  Datatype blocks = hvector(f_.blocks_of(rank), gz * gy * gx * cell, cube);
  Datatype vars = hvector(f_.vars, E, blocks); // variable slowest in the stream, as in the file
  const MPI_Aint origin = static_cast<MPI_Aint>(((g * gy + g) * gx + g) * cell);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_create_hindexed_block(1, 1, &origin, vars.get(), &t),
            "MPI_Type_create_hindexed_block");
  return {f_.blocks_of(rank) * f_.memory_block_bytes(), Datatype(t)};
}

} // namespace pio::patterns
