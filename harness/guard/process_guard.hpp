#pragma once
/// Every death explained, nothing of ours left behind (docs/reliability.md): handlers for the
/// fatal signals that name the rank, module, test and method of the step in progress and then
/// die with the original signal; SIGINT / SIGTERM / SIGHUP remove what this rank created (and
/// ROMIO's hidden files beside it) and exit 130 / 143 / 129, the results document marked
/// interrupted (results_mark.hpp); SIGXFSZ is ignored, so a write beyond `ulimit -f` fails with
/// EFBIG on the error path; an exit() or MPI_Abort inside a module while a run is in progress
/// is reported with its step.
/// Everything here that runs in a signal handler is async-signal-safe.

#include "guard/created_paths.hpp"

namespace pio::harness {

/// Installs the signal handlers and the exit check for this process (main() calls it after
/// MPI_Init).
void install_process_guards();

/// Marks the span in which the process must not end by exit(): while one lives, an exit()
/// (e.g. from a module) prints where it happened and ends the process with status 1.
class RunInProgress {
public:
  RunInProgress();
  ~RunInProgress();
  RunInProgress(const RunInProgress &) = delete;
  RunInProgress &operator=(const RunInProgress &) = delete;
};

} // namespace pio::harness
