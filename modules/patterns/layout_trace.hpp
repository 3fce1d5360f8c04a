#pragma once
// Internal to the pattern engine: the LayoutTrace directive's writer. Not installed.
//
// A trace is JSON lines (docs/reference/patterns.md, "Layout pictures"): a header line naming the
// run, then per traced test one "test" line followed by one line per (rank, unit) with that rank's
// file extents in the unit, straight from the test's Geometry. Only rank 0 writes.

#include <string>

#include "pio/context.hpp"
#include "pio/patterns/geometry.hpp"
#include "pio/patterns/temporal_mode.hpp"

namespace pio::patterns {

/// Opens `path` for this run: rewrites it unless this process already started it in this run
/// (every block naming the same path appends to one trace). Throws DirectiveError on failure.
void start_layout_trace(const std::string &path);

/// Appends one test's layout: every rank of the test (0 .. test.size-1), every unit, as the
/// engine runs it (`geometry`, data owners shifted by `shift` for ReorderTasks).
void append_layout_trace(const std::string &path, const TestContext &test, const Geometry &geometry,
                         TemporalMode mode, int shift);

} // namespace pio::patterns
