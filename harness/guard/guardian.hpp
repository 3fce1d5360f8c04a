#pragma once
/// The rank's guardian (docs/reference/reliability.md, "Interrupted runs"): a small process forked
/// by each rank before MPI_Init, in a session of its own, that waits for the rank to end. A rank
/// that ends normally disarms it. A rank that ends otherwise — a signal, the watchdog, MPI_Abort,
/// or SIGKILL, which nothing in the rank can catch (MPICH's mpiexec sends it to every rank at a
/// second Ctrl-C, and its proxy to the other ranks once one dies) — leaves it the paths it had
/// created (guard_state.hpp): the guardian removes what is still there, empties a claimed
/// directory of items by the tree rules in its owner record (which may take longer than mpiexec
/// gives a rank), marks the results interrupted if they still say running, and says what it
/// removed and what it left. It holds the rank's standard error, so mpiexec returns once it is
/// done and prints its message.

#include <string>

namespace pio::harness {

/// Forks the guardian of this process (once; call before MPI_Init, while the process has one
/// thread). Without it (a program that embeds the harness) the signal handlers work as before.
void start_guardian();

/// The rank ends normally: its guardian exits without touching anything.
void disarm_guardian() noexcept;

/// The guardian's pid, 0 if there is none (async-signal-safe).
int guardian_pid() noexcept;

/// True if the guardian is running (async-signal-safe).
bool guardian_alive() noexcept;

/// From a signal handler: asks the guardian to clean up now (the rank is stopping). Returns
/// false if there is no guardian to ask. Async-signal-safe.
bool guardian_request_cleanup() noexcept;

/// From a signal handler, after guardian_request_cleanup: waits until the guardian has finished,
/// has died, or another stop signal is pending. Returns true if it finished. Async-signal-safe.
bool guardian_wait() noexcept;

/// The guardian's work (guardian.cpp); exposed for the tests: everything the rank left, as
/// described above. Returns the message it printed ("" if it had nothing to do).
std::string clean_up_after_rank();

} // namespace pio::harness
