#pragma once
/// The results document marked when a signal ends the run (docs/reference/reliability.md): a run
/// stopped by SIGINT, SIGTERM, SIGHUP or a fatal signal must not keep `"status": "running",
/// "exit_code": 0`. The signal handlers (process_guard.hpp) rewrite the document last written, with
/// async-signal-safe calls only, to say `"status": "interrupted"`, the signal's name and the exit
/// code.

#include <string>

namespace pio::harness {

/// Names the results document this process writes (rank 0's JSON reporter, after each save).
void set_results_document(const std::string &path);

/// Rewrites the document named by set_results_document, if it still says `"status":
/// "running"`: `"signal": "<signal_name>"`, `"status": "interrupted"`, `"exit_code":
/// <exit_code>`, through a temporary renamed over it. Returns false if there was nothing to
/// mark or it failed. Async-signal-safe (open, read, write, mmap, rename).
bool mark_results_interrupted(const char *signal_name, int exit_code) noexcept;

} // namespace pio::harness
