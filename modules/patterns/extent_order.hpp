#pragma once
// Internal to the pattern engine: a unit's extents out of file order (issue 39). An MPI file view
// needs non-negative, non-decreasing displacements without overlap in a file opened for writing
// (MPI-4.0 §14.3), so under FileView on the engine puts a unit's extents in file order, each
// with its piece of the stream (the stream is a staging buffer stamped per file offset, so its
// order is the engine's to choose). What it cannot reorder is refused before any I/O: a memory
// datatype (Geometry::memory) fixes the stream's order, and one rank's extents that overlap each
// other cannot be one view. Where the engine makes one call per extent (FileView off) or the
// interface takes the extents (posix, hdf5), the pattern's order is kept: it is part of the
// pattern (a replayed trace's sequence of calls). Not installed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pio/patterns/geometry.hpp"

namespace pio::patterns {

/// True when the non-empty extents ascend in file order without overlap.
bool in_file_order(const std::vector<Extent> &extents);

/// Sorts extents by offset (stable: equal offsets keep their order). Returns "" or, when two
/// non-empty extents overlap, "[a, b) and [c, d)" naming the first such pair.
std::string sort_for_view(std::vector<Extent> &extents);

/// The first unit that cannot go through a file view: among units 0 .. `units` - 1 of ranks 0 ..
/// `ranks` - 1 (at most `max_extents` extents evaluated, as the overlap check), a rank whose
/// extents out of file order come with a memory datatype, or overlap each other. Returns "in
/// work unit U rank R's ..." with the reason; nothing when every unit can.
std::optional<std::string> find_unviewable_unit(const Geometry &geometry, int ranks,
                                                std::int64_t units, std::int64_t max_extents);

} // namespace pio::patterns
