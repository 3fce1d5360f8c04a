// FLASH I/O kernel pattern: thesis §3.4.1 "Flash I/O Kernel", Fig. 3.11 (memory layout) and
// Fig. 3.12 (disk layout); results §4.2.8, Fig. 4.8; terminology §5.1.
//
// "The spatial access pattern that the Flash code utilizes is non-contiguous in memory and
// non-contiguous in file ... a sequence of 'memory blocks' where each memory block contains a
// three dimensional cube of data. Inside this three dimensional cube, there are areas that need
// to be accessed in file, and those that are skipped over ... referred to as 'guard cells.'"
//
// Memory (Fig. 3.11), as the FLASH-IO kernel's Fortran array unk(nvar, nx+2g, ny+2g, nz+2g,
// blocks): the variable index varies fastest, then x, y, z (each with g guard cells on both
// sides), then the block. Byte address of variable v of interior cell (x, y, z) of block b:
//   ((((b*(NZ+2g) + z+g)*(NY+2g) + y+g)*(NX+2g) + x+g)*V + v)*E
// The memory datatype selects the interior cells and skips the guards.
//
// File (Fig. 3.12), as the kernel's checkpoint: variable-major. For each variable, every block
// of every rank (rank order, each rank's blocks contiguous), each block's interior cells with x
// fastest. Rank r has n(r) = Blocks + (r mod BlockSpread) blocks (the kernel: 80 + r mod 3), so
// its first block is P(r) = n(0) + ... + n(r-1) of T = P(size) blocks in all. With C = NX*NY*NZ
// cells per block, checkpoint (work unit) u holds
//   variable v of rank r:  offset H + u*V*T*C*E + (v*T + P(r))*C*E,  length n(r)*C*E
//
//   header | var 0: [r0 blocks][r1 blocks]...[rP-1 blocks] | var 1: [r0][r1]... | ... var V-1
//
// Both memory and file are non-contiguous; the stream order (v, b, z, y, x) is the same in
// both. TestSpec.buffer_size is the transfer amount (§4.2.8 asks for the name: the bytes a rank
// moves per work unit, interior cells only), the mean over ranks since n(r) varies; params
// record the per-rank range and the block geometry (§5.1: disclose every runtime parameter).
// Only the checkpoint is modelled, not the kernel's plot files.

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/flash_geometry.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/tile_dims.hpp"

namespace pio::patterns {
namespace {

/// Every size of layout f, computed with overflow checks before FlashLayout computes it plainly:
/// throws DirectiveError if a product exceeds 2^63-1, an MPI count 2^31-1, or the file of `units`
/// checkpoints 2^63-1.
void check_layout(const FlashLayout &f, std::int64_t units) {
  // Rank r has blocks + r mod spread blocks: T < ranks x (blocks + ranks).
  const std::int64_t most = checked_add(f.blocks, f.ranks, "Blocks", "blocks of one rank");
  checked_int(checked_mul(most, f.ranks, "Blocks", "the blocks of all ranks"), "total blocks",
              "Blocks");
  checked_int(f.total_blocks(), "total blocks", "Blocks");
  const std::int64_t cells = checked_mul(checked_mul(f.nx, f.ny, "BlockSizes", "cells of a block"),
                                         f.nz, "BlockSizes", "cells of a block");
  const std::int64_t block = checked_mul(cells, f.element, "ElementSize", "one block variable");
  const std::int64_t all_blocks =
      checked_mul(f.total_blocks(), block, "Blocks", "one variable of all blocks");
  checked_file_end(f.header, units, checked_mul(all_blocks, f.vars, "Variables", "one checkpoint"),
                   "WorkUnits");
  // Memory: guarded cubes of all variables (the buffer every rank allocates).
  const std::int64_t g2 = checked_mul(f.guard, 2, "GuardCells", "guard cells of a block");
  std::int64_t guarded = 1;
  for (const std::int64_t n : {f.nx, f.ny, f.nz})
    guarded = checked_mul(guarded, checked_add(n, g2, "GuardCells", "a guarded block edge"),
                          "GuardCells", "cells of a guarded block");
  checked_mul(checked_mul(checked_mul(guarded, f.vars, "Variables", "a guarded block"), f.element,
                          "ElementSize", "a guarded block"),
              most, "Blocks", "the memory of one rank's guarded blocks");
}

class FlashIo : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const auto &s = ctx.settings;
    const std::int64_t guard = s.integer("GuardCells"), vars = s.integer("Variables");
    const std::int64_t element = s.size("ElementSize"), spread = s.integer("BlockSpread");
    std::vector<PatternTest> tests;
    for (const auto &text : s.texts("BlockSizes"))
      for (const std::int64_t blocks : s.integers("Blocks")) {
        const auto cells = parse_dims(text, 3, "BlockSizes");
        FlashLayout f;
        f.nx = cells[0], f.ny = cells[1], f.nz = cells[2], f.guard = guard, f.vars = vars;
        f.element = element, f.blocks = blocks, f.spread = spread, f.header = header_offset();
        f.ranks = ctx.size;
        std::int64_t total = 0, lo = f.transfer(0), hi = f.transfer(0);
        for (int r = 0; r < ctx.size; ++r) {
          total += f.transfer(r);
          lo = std::min(lo, f.transfer(r));
          hi = std::max(hi, f.transfer(r));
        }
        const std::int64_t mean = (total + ctx.size / 2) / ctx.size;
        check_layout(f, work_units(mean));
        PatternTest t{pattern_spec(format_dims(cells) + " b" + std::to_string(blocks), mean),
                      std::make_shared<FlashGeometry>(f)};
        auto &p = t.spec.params;
        p["buffer_size_means"] = "transfer amount: mean over ranks of the interior bytes one rank "
                                 "moves per work unit (thesis §4.2.8, §5.1); memory holds guard "
                                 "cells too";
        p["transfer_amount_min"] = std::to_string(lo);
        p["transfer_amount_max"] = std::to_string(hi);
        p["transfer_amount_total"] = std::to_string(total);
        p["block_cells"] = format_dims(cells);
        p["guard_cells"] = std::to_string(guard);
        p["variables"] = std::to_string(vars);
        p["element_size"] = std::to_string(element);
        p["blocks"] =
            std::to_string(blocks) + (spread > 1 ? " + rank mod " + std::to_string(spread) : "");
        p["total_blocks"] = std::to_string(f.total_blocks());
        p["memory_bytes_rank0"] = std::to_string(f.blocks_of(0) * f.memory_block_bytes());
        p["memory_layout"] = "unk(nvar, x, y, z, block), guard cells skipped";
        p["file_layout"] = "variable-major: var, global block, z, y, x";
        tests.push_back(std::move(t));
      }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("1", "work units per test; unit u writes checkpoint u after the "
                                   "header");
  d.push_back({"BlockSizes", DirectiveType::Texts, "8x8x8",
               "interior cells per block, NXBxNYBxNZB (or N for a cube); one test per entry"});
  d.push_back(DirectiveSpec{"Blocks", DirectiveType::Integers, "80",
                            "blocks of rank 0 (rank r: Blocks + r mod BlockSpread); one test per "
                            "entry"}
                  .at_least(1));
  d.push_back(DirectiveSpec{"BlockSpread", DirectiveType::Integer, "3",
                            "rank r has Blocks + r mod BlockSpread blocks (0 or 1: all ranks "
                            "equal)"}
                  .at_least(0));
  d.push_back(DirectiveSpec{"GuardCells", DirectiveType::Integer, "4",
                            "guard cells on each side of a block in memory (not written)"}
                  .at_least(0));
  d.push_back(DirectiveSpec{"Variables", DirectiveType::Integer, "24", "variables per cell (nvar)"}
                  .at_least(1));
  d.push_back(
      DirectiveSpec{"ElementSize", DirectiveType::Size, "8", "bytes per variable value (a double)"}
          .at_least(1));
  return d;
}

ModuleInfo info() {
  ModuleInfo m("flash_io", make_module<FlashIo>);
  m.title = "Flash I/O";
  m.summary =
      "FLASH-IO checkpoint: guarded blocks in memory, written variable-major to a shared file";
  m.reference = "thesis §3.4.1, Figs. 3.11-3.12; §4.2.8, Fig. 4.8; §5.1";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
