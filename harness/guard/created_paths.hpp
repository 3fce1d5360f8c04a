#pragma once
/// The paths this process created and must remove if it is interrupted or dies (a signal handler
/// or the watchdog removes them: async-signal-safe).

#include <string>

namespace pio::harness {

/// Remembers a path this process created and must remove if it is interrupted or dies; with
/// `only_once_gone`, path is removed only if that path is gone by then (the owner record of a
/// claimed directory stays while the directory, holding items, stays).
void track_created(const std::string &path, const std::string &only_once_gone = {});
/// Forgets a path (it was removed, or handed over to the user).
void untrack_created(const std::string &path);
/// Unlinks every tracked path and the hidden files ROMIO made beside it (async-signal-safe).
void remove_tracked() noexcept;

/// Unlinks the hidden files ROMIO makes beside a file it opens, `.<name>.shfp.<n>` (its shared
/// file pointer, deleted by MPI_File_close and left behind when a rank dies), that are regular
/// files modified at or after since_ns (realtime, ns since 1970), so that a file older than the
/// run that made `path` is never touched. Returns how many were removed. Async-signal-safe.
int remove_romio_companions(const char *path, long long since_ns) noexcept;

} // namespace pio::harness
