#pragma once
/// Sweeps in the config: a block written once with `Sweep <name> <value>...` lines runs once for
/// every combination of the swept values (the parameter sweeps of a file-system tuning
/// experiment, written by hand as 24 blocks before).

#include <string>
#include <utility>
#include <vector>

#include "config.hpp"

namespace pio::harness {

/// A hint value as MPI-IO wants it: a size with a K, M, G or T suffix becomes its byte count
/// ("16M" -> "16777216"); any other value is kept as written.
std::string hint_value(const std::string &value);

/// The values of a Sweep line after its name, with size ranges expanded: "4K..16M" is 4K, 8K,
/// ... 16M (doubling, as the sizes of the thesis's figures). Throws pio::Error on an empty list
/// or a bad range.
std::vector<std::string> sweep_values(const std::vector<std::string> &words);

/// Checks a Sweep line's words as it is read (a name and at least one value; the values of a
/// swept Collective, FileView, SyncWrites or Verify checked as that directive checks them;
/// Hint:<key> with a key). Module directives are checked once the module is known. Throws
/// pio::Error.
void check_sweep(const std::vector<std::string> &words);

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

/// Replaces every block with Sweep lines by one block per combination of the swept values, in
/// the config's order, the first Sweep line varying slowest. Each expanded block has the values
/// set (flags, hints, and a module-directive line at the Sweep's file:line, so that the module's
/// spec checks it there) and listed in ModuleBlock::swept. Throws ConfigError at a Sweep's
/// file:line (a directive swept twice, or both set and swept, or too many blocks).
void expand_sweeps(Config &config);

} // namespace pio::harness
