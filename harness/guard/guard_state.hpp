#pragma once
/// What the signal handlers, the watchdog and the rank's guardian process (guardian.hpp) share:
/// the paths this rank created, the results document, why the rank is stopping. It lives in one
/// shared anonymous mapping made before the guardian is forked, so the guardian reads what the
/// rank wrote up to its death, even one by SIGKILL. Fixed-size fields and lock-free atomics only:
/// written by the rank's threads, read in signal handlers and by the other process.

#include <limits.h>

#include <atomic>

namespace pio::harness {

/// How a tracked path is removed (created_paths.hpp).
enum class PathKind : unsigned char {
  Free = 0, ///< an unused slot
  File,     ///< unlinked (a directory: removed with rmdir if empty)
  Tree,     ///< a claimed directory of items: rmdir if empty, else its rules (the guardian)
  Joined,   ///< a tree another rank of the block claimed: never removed here, only named
};

/// Why the rank stops, for its guardian (0: nothing said, so it was killed by SIGKILL).
enum StopReason : int {
  kStopUnexplained = 0,
  kStopExit = -1,     ///< exit() in a module: the results keep "running"
  kStopWatchdog = -2, ///< StepTimeout: the results keep "running"
  kStopAbort = -3,    ///< MPI_Abort: the results keep "running"
  // > 0: the signal that stopped it (SIGINT, SIGTERM, SIGHUP, or a fatal signal)
};

/// The shared state of one rank.
struct GuardState {
  static constexpr int kSlots = 256;
  char paths[kSlots][PATH_MAX];
  char unless[kSlots][PATH_MAX]; ///< "" or a path whose existence keeps paths[i]
  std::atomic<PathKind> kind[kSlots];
  /// When this process first tracked a path (realtime ns, a second early): ROMIO's hidden files
  /// older than that are never removed.
  std::atomic<long long> since_ns;
  char results_doc[PATH_MAX]; ///< the results document rank 0 writes ("" elsewhere)
  char results_tmp[PATH_MAX]; ///< its temporary for marking it interrupted
  std::atomic<bool> results_named;
  std::atomic<int> stop_reason;  ///< a StopReason
  std::atomic<bool> disarmed;    ///< the rank ended normally: its guardian does nothing
  std::atomic<int> cleanup_done; ///< the guardian finished its cleanup (1)
  std::atomic<int> guardian_pid; ///< 0 if there is none
  std::atomic<int> rank;         ///< for the guardian's messages (-1 before it is known)
};

/// This process's state (mapped on first use; async-signal-safe after that).
GuardState &guard_state() noexcept;

} // namespace pio::harness
