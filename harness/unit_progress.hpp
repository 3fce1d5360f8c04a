#pragma once
/// Live progress from inside a test (docs/results.md, "Live progress"): the unit loop tells the
/// installed listener after every work unit. Rank 0's ProgressReporter installs itself for the
/// length of a run; on other ranks, and when progress is off, the call costs one pointer test.

#include <cstdint>

#include "pio/context.hpp"

namespace pio::harness {

/// Receives each work unit's completion (rank 0, progress reporting on).
class UnitListener {
public:
  virtual ~UnitListener() = default;
  /// A unit of `phase` finished; this rank has run `units` units of the phase and moved `bytes`
  /// in `aggregate_time_s` (end-of-B1 to end-of-B2, summed). Never throws.
  virtual void unit_done(const TestContext &test, int phase, std::int64_t units, std::int64_t bytes,
                         double aggregate_time_s) noexcept = 0;
};

/// The installed listener (nullptr: none).
UnitListener *unit_listener();
/// Installs `listener` (nullptr removes it).
void set_unit_listener(UnitListener *listener);

/// Called by the unit loop after every work unit.
inline void notify_unit_done(const TestContext &test, int phase, std::int64_t units,
                             std::int64_t bytes, double aggregate_time_s) {
  if (UnitListener *l = unit_listener())
    l->unit_done(test, phase, units, bytes, aggregate_time_s);
}

} // namespace pio::harness
