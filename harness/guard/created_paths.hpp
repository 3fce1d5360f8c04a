#pragma once
/// The paths this process created and must remove if it is interrupted or dies (a signal handler
/// or the watchdog removes them: async-signal-safe).

#include <string>

namespace pio::harness {

/// Remembers a path this process created and must remove if it is interrupted or dies.
void track_created(const std::string &path);
/// Forgets a path (it was removed, or handed over to the user).
void untrack_created(const std::string &path);
/// Unlinks every tracked path (async-signal-safe).
void remove_tracked() noexcept;

} // namespace pio::harness
