#pragma once
/// The paths this process created and must remove if it is interrupted or dies (a signal handler,
/// the watchdog or the rank's guardian process removes them: async-signal-safe), kept in the
/// state the guardian shares (guard_state.hpp).

#include <cstddef>
#include <string>
#include <vector>

namespace pio::harness {

/// Remembers a path this process created and must remove if it is interrupted or dies; with
/// `only_once_gone`, path is removed only if that path is gone by then (the owner record of a
/// claimed directory stays while the directory, holding items, stays).
void track_created(const std::string &path, const std::string &only_once_gone = {});
/// Remembers a directory this process claimed with tree rules in its owner record: removed with
/// rmdir if empty; else the guardian empties it by those rules (guardian.hpp).
void track_tree(const std::string &path);
/// Remembers a directory another rank of the block claimed, in which this rank makes items: never
/// removed here (the claiming rank's guardian empties it), named in the messages.
void track_joined_tree(const std::string &path);
/// Forgets a path (it was removed, or handed over to the user).
void untrack_created(const std::string &path);

/// Text built in a fixed buffer (async-signal-safe), truncated with "..." when full.
class FixedText {
public:
  FixedText &operator<<(const char *s) noexcept;
  FixedText &operator<<(long long v) noexcept;
  const char *c_str() const noexcept { return text_; }
  bool empty() const noexcept { return n_ == 0; }

private:
  char text_[1536] = {0};
  std::size_t n_ = 0;
};

/// What remove_tracked did, in words.
struct Removal {
  FixedText removed; ///< "a, b, c": the paths removed
  int removed_count = 0;
  int companions = 0; ///< ROMIO's hidden files removed beside them
  FixedText left;     ///< "d (a directory of items ...)": the paths that stay
  int left_count = 0;
  int trees_left = 0; ///< claimed directories left holding items (for the guardian)
};

/// Unlinks every tracked path and the hidden files ROMIO made beside it; a claimed directory
/// that still holds items stays tracked (the guardian sweeps it). Says what it did in `report`.
/// Async-signal-safe.
void remove_tracked(Removal *report = nullptr) noexcept;

/// The claimed directories (Tree) still tracked (for the guardian, not in a signal handler).
std::vector<std::string> tracked_trees();

/// Unlinks the hidden files ROMIO makes beside a file it opens, `.<name>.shfp.<n>` (its shared
/// file pointer, deleted by MPI_File_close and left behind when a rank dies), that are regular
/// files modified at or after since_ns (realtime, ns since 1970), so that a file older than the
/// run that made `path` is never touched. Returns how many were removed. Async-signal-safe.
int remove_romio_companions(const char *path, long long since_ns) noexcept;

} // namespace pio::harness
