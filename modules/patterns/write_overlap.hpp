#pragma once
/// The engine's check that no two ranks write the same byte in one work unit
/// (docs/guides/writing-a-module.md, "Overlapping ranks"): two writers of one byte race, and Verify
/// would blame the file system for what is a fault of the Geometry. Rank 0 evaluates the Geometry
/// for every rank (a Geometry can be evaluated for any rank without communication), before any I/O.

#include <cstdint>
#include <optional>
#include <string>

#include "pio/patterns/geometry.hpp"

namespace pio::patterns {

/// At most this many extents are checked per test: every unit while the extents of all ranks
/// fit, and of the first unit at least the ranks that fit (16 bytes each in memory).
inline constexpr std::int64_t kOverlapCheckExtents = std::int64_t(1) << 20;

/// The first overlap between two ranks' extents of one unit among units 0.. `units` - 1 of the
/// `ranks` ranks, as "in work unit U rank A's bytes [a, b) and rank B's bytes [c, d) overlap in
/// [e, f) (N bytes)"; nothing if none (within `max_extents`, see kOverlapCheckExtents). A rank
/// that overlaps only itself is not reported: one writer, no race.
std::optional<std::string> find_rank_overlap(const Geometry &geometry, int ranks,
                                             std::int64_t units,
                                             std::int64_t max_extents = kOverlapCheckExtents);

} // namespace pio::patterns
