#pragma once
/// Every death explained, nothing of ours left behind (docs/reference/reliability.md): handlers for
/// the fatal signals that name the rank, module, test and method of the step in progress and then
/// die with the original signal; SIGINT / SIGTERM / SIGHUP remove what this rank created (and
/// ROMIO's hidden files beside it; a directory of items through the rank's guardian,
/// guardian.hpp) and exit 130 / 143 / 129, the results document marked
/// interrupted (results_mark.hpp); SIGXFSZ is ignored, so a write beyond `ulimit -f` fails with
/// EFBIG on the error path; an exit() or MPI_Abort inside a module while a run is in progress
/// is reported with its step.
/// Everything here that runs in a signal handler is async-signal-safe.

#include "guard/created_paths.hpp"

namespace pio::harness {

/// Installs the signal handlers and the exit check for this process (main() calls it after
/// MPI_Init).
void install_process_guards();

/// Removes what this rank created (created_paths.hpp), then prints one line on standard error:
/// "pio-harness: error: rank R <what><at><module, test, step> on host H; removed ...; left ...
/// <tail>", naming every path removed and every path left, and who removes what is left. With
/// `hand_over`, a claimed directory of items left is handed to the rank's guardian at once
/// (guardian.hpp; the caller then waits for it), else the guardian takes it once the rank has
/// exited. Returns true if it was handed over. Async-signal-safe.
bool remove_and_say(const char *what, const char *at, const char *tail,
                    bool hand_over = false) noexcept;

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
