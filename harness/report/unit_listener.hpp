#pragma once
/// Live progress from inside a test (docs/reference/results.md, "Live progress"): the runner hands
/// the unit loop a listener (rank 0's ProgressReporter) that it tells of a finished work unit at
/// most every 50 ms (the first unit of a phase always); on other ranks, and when progress is off,
/// there is none and the call costs one pointer test.

#include <cstdint>

#include "pio/context.hpp"

namespace pio::harness {

/// Receives work units' completion (rank 0, progress reporting on).
class UnitListener {
public:
  virtual ~UnitListener() = default;
  /// A unit of `phase` finished; this rank has run `units` units of the phase and moved `bytes`
  /// in `aggregate_time_s` (end-of-B1 to end-of-B2, summed). Never throws.
  virtual void unit_done(const TestContext &test, int phase, std::int64_t units, std::int64_t bytes,
                         double aggregate_time_s) noexcept = 0;
};

} // namespace pio::harness
