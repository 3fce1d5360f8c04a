#pragma once
/// Waiting for a non-blocking collective while telling the watchdog this rank is alive: ranks
/// idle in a test or a block of fewer Processes wait here as long as the others measure.

#include <mpi.h>

#include <chrono>

namespace pio::harness {

/// Polls `request` until it completes, with a heartbeat naming `step` at every poll. The pause
/// between polls starts at 50 µs and doubles up to `longest`, so that idle ranks leave the cores
/// to the ranks measuring while a short wait still ends soon after the others.
void wait_alive(MPI_Request &request, const char *step, std::chrono::microseconds longest);

} // namespace pio::harness
