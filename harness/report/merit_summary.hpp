#pragma once
/// The run's figures of merit in one table, for the end of the console: each block's figure
/// (b_eff_io, b_eff, COMMTEST: its first value), an IMB block's latency at its shortest message
/// and bandwidth at its longest, a table block's median rate per test.

#include <string>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// One line of the summary.
struct MeritRow {
  std::string block; ///< the block's label
  std::string what;  ///< the figure's name, "t_avg at 0 B", or the test and "median"
  double value = 0;  ///< NaN: not measured
  std::string unit;
  std::string flags; ///< the flags of the tests behind the value ("" clean)
};

/// The summary of the blocks run so far, in block order; failed tests and blocks are left out.
std::vector<MeritRow> merit_summary(const RunResult &run);

/// The summary as a figure table (block, figure of merit, value, unit, flags) for figure_text's
/// layout.
FigureTable merit_table(const std::vector<MeritRow> &rows);

} // namespace pio::harness
