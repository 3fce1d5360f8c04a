#pragma once
/// Processes lines (and Sweep Processes): the counts of ranks a block runs on.

#include <string>
#include <vector>

#include "config/config_model.hpp"

namespace pio::harness {

/// Checks the counts of a Processes line (or Sweep Processes) as it is read: each a count of at
/// least 1, `all`, or a doubling range <from>..<to> whose end is a count or `all`. Throws
/// pio::Error.
void check_process_counts(const std::vector<std::string> &words);

/// The counts of a Processes line for a run of run_size ranks, in the order written, each once:
/// `all` is run_size; 1..all is 1, 2, 4 ... below run_size, then run_size (as IMB's -npmin
/// series ends with the run's size). Counts above run_size are left out and added to skipped.
std::vector<int> process_counts(const std::vector<std::string> &words, int run_size,
                                std::vector<int> &skipped);

/// Sets every block's process count for a run of run_size ranks: a block without Processes runs
/// on all of them; a block with one runs once per count (in the order written, each count
/// running all of the block's other combinations before the next), carrying "Processes" in
/// ModuleBlock::swept when its line lists more than one count. Counts above run_size are skipped
/// with a note in Config::notes; a line left without any count throws ConfigError at its
/// file:line.
void expand_processes(Config &config, int run_size);

} // namespace pio::harness
