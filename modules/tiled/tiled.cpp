// Tiled access pattern: thesis §3.4.1, Fig. 3.10 (results §4.2.7, Fig. 4.7), the pattern of the
// mpi-tile-io benchmark [20] (§2.3.3: a scene split over the monitors of a video wall).
//
// "Tiled access is categorized by each process accessing an area of the file which is viewed as
// a 'virtual tile.' Depending on the layout of the tiles, this pattern can either be decomposed
// to segmented access or simple strided access." (§3.4.1)
//
// The file holds a 2-D dataset of TilesX x TilesY tiles, stored row-major (x fastest) as
// elements of ElementSize bytes. Each tile is TX x TY elements; neighbouring tiles share OX
// columns / OY rows (Overlap). Rank r holds tile (r mod TilesX, r div TilesX):
//
//   dataset X = TilesX*TX - (TilesX-1)*OX elements,  Y = TilesY*TY - (TilesY-1)*OY rows
//   tile start (sx, sy) = ((r mod TilesX)*(TX-OX), (r div TilesX)*(TY-OY))
//   unit u holds dataset u ("frame" u) at base B(u) = HeaderOffset + u*X*Y*E
//   row j of the tile (j = 0..TY-1): offset B(u) + ((sy+j)*X + sx)*E, length TX*E
//
//   header | row 0: [ r0 tile row ][ r1 tile row ] | row 1: [ r0 ][ r1 ] | ... | r2, r3 rows ...
//
// One tile per process (TilesX*TilesY must equal the number of processes; Tiles auto picks a
// near-square grid with MPI_Dims_create). The file view is the tile's MPI subarray; memory is the
// packed tile. Overlap: a shared border element has two owners, so writing it is a race (the
// thesis's reason, §3.4.1 "Sequential", for not sharing written regions). Overlap is therefore
// accepted only for Mode read and re-read, and only with Verify off (the verification stamps
// identify one writer per byte). TestSpec.buffer_size is the bytes of one tile.

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/byte_types.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/tile_dims.hpp"

namespace pio::patterns {
namespace {

/// One tiled test: grid, tile, overlap and element size, all in elements except `element`.
struct TileLayout {
  std::int64_t tiles_x = 1, tiles_y = 1;     ///< tiles in the dataset
  std::int64_t tile_x = 1, tile_y = 1;       ///< elements per tile
  std::int64_t overlap_x = 0, overlap_y = 0; ///< elements shared by neighbouring tiles
  std::int64_t element = 8;                  ///< bytes per element
  std::int64_t header = 0;                   ///< HeaderOffset

  /// Dataset width in elements.
  std::int64_t width() const { return tiles_x * tile_x - (tiles_x - 1) * overlap_x; }
  /// Dataset height in elements (rows).
  std::int64_t height() const { return tiles_y * tile_y - (tiles_y - 1) * overlap_y; }
  /// Bytes of one dataset (one work unit's frame).
  std::int64_t dataset_bytes() const { return width() * height() * element; }
  /// Bytes of one tile.
  std::int64_t tile_bytes() const { return tile_x * tile_y * element; }
  /// First element column of rank's tile.
  std::int64_t start_x(int rank) const { return (rank % tiles_x) * (tile_x - overlap_x); }
  /// First element row of rank's tile.
  std::int64_t start_y(int rank) const { return (rank / tiles_x) * (tile_y - overlap_y); }
};

/// Thesis Fig. 3.10: each rank's tile of the 2-D dataset.
class TiledGeometry : public Geometry {
public:
  explicit TiledGeometry(const TileLayout &t) : t_(t) {}

  /// The tile's rows, top to bottom: the subarray's typemap order.
  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    std::vector<Extent> out;
    const std::int64_t base = t_.header + unit * t_.dataset_bytes();
    for (std::int64_t j = 0; j < t_.tile_y; ++j)
      out.push_back({base + ((t_.start_y(rank) + j) * t_.width() + t_.start_x(rank)) * t_.element,
                     t_.tile_x * t_.element});
    return out;
  }

  /// The natural view: the tile as an MPI subarray of the dataset (C order, rows of x).
  FileView view(int rank, std::int64_t unit) const override {
    const int sizes[2] = {checked_int(t_.height(), "dataset height"),
                          checked_int(t_.width(), "dataset width")};
    const int subsizes[2] = {static_cast<int>(t_.tile_y), static_cast<int>(t_.tile_x)};
    const int starts[2] = {static_cast<int>(t_.start_y(rank)), static_cast<int>(t_.start_x(rank))};
    Datatype element = contiguous_bytes(t_.element);
    MPI_Datatype tile = MPI_DATATYPE_NULL;
    mpi_check(
        MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, element.get(), &tile),
        "MPI_Type_create_subarray");
    return {t_.header + unit * t_.dataset_bytes(), Datatype(tile)};
  }

private:
  TileLayout t_;
};

/// Reads "auto" or "XxY" for the tile grid of `procs` processes.
std::vector<std::int64_t> tile_grid(const std::string &text, int procs) {
  if (text == "auto") {
    int dims[2] = {0, 0};
    mpi_check(MPI_Dims_create(procs, 2, dims), "MPI_Dims_create");
    return {dims[0], dims[1]};
  }
  auto grid = parse_dims(text, 2, "Tiles");
  if (grid[0] * grid[1] != procs)
    throw DirectiveError("Tiles",
                         "Tiles " + text + " makes " + std::to_string(grid[0] * grid[1]) +
                             " tiles but the test runs on " + std::to_string(procs) + " processes",
                         "each process accesses one tile: make TilesX x TilesY equal the number of "
                         "processes, or write Tiles auto");
  return grid;
}

/// Reads Overlap: N or XxY elements, each 0 or more (mpi-tile-io sets x and y independently).
std::vector<std::int64_t> parse_overlap(const std::string &text) {
  return parse_dims(text, 2, "Overlap", true);
}

class Tiled : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const auto grid = tile_grid(ctx.settings.text("Tiles"), ctx.size);
    const auto overlap = parse_overlap(ctx.settings.text("Overlap"));
    const std::int64_t element = ctx.settings.size("ElementSize");
    if ((overlap[0] > 0 || overlap[1] > 0) &&
        !(mode() == TemporalMode::Read || mode() == TemporalMode::ReRead))
      throw DirectiveError(
          "Overlap",
          std::string("Overlap with Mode ") + temporal_mode_name(mode()) +
              ": a border element shared by two tiles would be written by two processes "
              "(a race, thesis §3.4.1)",
          "use Overlap only with Mode read or re-read, or set Overlap 0");
    if ((overlap[0] > 0 || overlap[1] > 0) && ctx.verify != pio::VerifyMode::Off)
      throw DirectiveError(
          "Overlap",
          "Overlap with Verify on or timed: a shared border element has one writer but two "
          "readers, so the per-rank verification stamps cannot check it",
          "set Verify off for overlapping tiles, or set Overlap 0");
    std::vector<PatternTest> tests;
    for (const auto &text : ctx.settings.texts("TileSizes")) {
      const auto tile = parse_dims(text, 2, "TileSizes");
      if (overlap[0] >= tile[0] || overlap[1] >= tile[1])
        throw DirectiveError("Overlap",
                             "Overlap " + format_dims(overlap) + " is not smaller than tile " +
                                 format_dims(tile),
                             "neighbouring tiles may share fewer elements than a tile has");
      const TileLayout t{grid[0],    grid[1],    tile[0], tile[1],
                         overlap[0], overlap[1], element, header_offset()};
      // Dataset extents fit an MPI int (the subarray's sizes) and the file fits in 2^63 bytes.
      checked_int(checked_mul(grid[0], tile[0], "TileSizes", "the dataset width"), "dataset width",
                  "TileSizes");
      checked_int(checked_mul(grid[1], tile[1], "TileSizes", "the dataset height"),
                  "dataset height", "TileSizes");
      const std::int64_t frame =
          checked_mul(checked_mul(t.width(), t.height(), "TileSizes", "the dataset's elements"),
                      element, "ElementSize", "one dataset");
      checked_file_end(t.header, work_units(t.tile_bytes()), frame, "WorkUnits");
      PatternTest p{pattern_spec(format_dims(tile), t.tile_bytes()),
                    std::make_shared<TiledGeometry>(t)};
      p.spec.params["tile"] = format_dims(tile);
      p.spec.params["tiles"] = format_dims(grid);
      p.spec.params["overlap"] = format_dims(overlap);
      p.spec.params["element_size"] = std::to_string(element);
      p.spec.params["dataset"] = format_dims({t.width(), t.height()});
      p.spec.params["buffer_size_means"] = "bytes of one tile";
      tests.push_back(std::move(p));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("1", "work units per test; unit u accesses the u-th dataset after "
                                   "the header");
  d.push_back({"TileSizes", DirectiveType::Texts, "128x128",
               "elements per tile, XxY (or N for NxN); one test per entry"});
  d.push_back({"Tiles", DirectiveType::Text, "auto",
               "tile grid XxY, one tile per process (auto: a near-square grid of the processes)"});
  d.push_back(
      DirectiveSpec{"ElementSize", DirectiveType::Size, "8", "bytes per element"}.at_least(1));
  d.push_back({"Overlap", DirectiveType::Text, "0",
               "elements neighbouring tiles share in x and in y, XxY (each 0 or more) or N (Mode "
               "read/re-read, Verify off)"});
  return d;
}

ModuleInfo info() {
  ModuleInfo m("tiled", make_module<Tiled>);
  m.title = "Tiled";
  m.summary = "each process accesses one tile of a 2-D dataset through a subarray file view "
              "(mpi-tile-io)";
  m.reference = "thesis §3.4.1, Fig. 3.10; §4.2.7, Fig. 4.7";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
