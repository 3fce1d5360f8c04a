#include "guard/owned_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "guard/created_paths.hpp"
#include "guard/owner_record.hpp"
#include "guard/tree_sweep.hpp"
#include "pio/error.hpp"

namespace pio::harness {

namespace {

/// Removes the regular file at path that owner's record proves, proved again under a name no
/// client has looked up: a network file system's client may answer lstat(path) from its cache of
/// names with the file that was there before another client replaced it (GlusterFS's FUSE client,
/// for its entry timeout), while unlink(path) removes what the servers hold there now. The file is
/// moved aside, proved there and removed, or moved back (never over a file made meanwhile).
void remove_proved_file(const OwnerRecord &owner, const std::string &path,
                        const std::string &record) {
  const std::string aside = path + ".pio-removing." + std::to_string(::getpid());
  if (::rename(path.c_str(), aside.c_str()) != 0) {
    if (errno == ENOENT)
      return; // gone meanwhile
    throw Error("test file " + path + " was left behind by " + describe_owner(owner) +
                    ", but moving it aside to remove it failed: " + std::strerror(errno),
                "remove it and its owner record " + record + " by hand");
  }
  const std::string why = file_differs(owner, aside, /*moved=*/true);
  if (why.empty()) {
    ::unlink(aside.c_str());
    return;
  }
  struct stat st;
  const bool back =
      ::renameat2(AT_FDCWD, aside.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0 ||
      (errno == EINVAL && ::lstat(path.c_str(), &st) != 0 &&
       ::rename(aside.c_str(), path.c_str()) == 0);
  throw Error("test file " + path + " has the owner record " + record + " of " +
                  describe_owner(owner) + ", which is no longer running, but " + why +
                  " (seen when pio-harness moved it aside to remove it: this host's cache of "
                  "names had shown the file that run left); pio-harness removes neither" +
                  (back ? "" : "; the file is at " + aside + " now (moving it back failed)"),
              "if " + path + " is yours, remove only the stale record " + record +
                  "; if it is a leftover of that run, remove both");
}

/// Removes what a dead run left at path (st: its lstat) as owner's record proves it: a regular
/// file (remove_proved_file) and ROMIO's companions, or a module's directory, emptied only by
/// the record's tree rules. Returns the entries removed below a directory; throws pio::Error,
/// having removed nothing more, at anything the run did not make.
std::size_t remove_leftover(const OwnerRecord &owner, const std::string &path,
                            const std::string &record, const struct stat &st) {
  if (S_ISREG(st.st_mode))
    remove_proved_file(owner, path, record);
  remove_romio_companions(path.c_str(), owner.created_ns);
  std::size_t swept = 0;
  if (S_ISDIR(st.st_mode) && !owner.trees.empty()) { // only by its rules
    const TreeSweep sweep = sweep_tree(path, owner.trees, owner.changed_after_ns());
    if (!sweep.foreign.empty())
      throw Error("test directory " + path + " was left behind by " + describe_owner(owner) +
                      ", but it holds " + sweep.foreign + " (" + sweep.why +
                      "), which that run did not make (its record allows " +
                      describe_rules(owner.trees) + "); pio-harness removed nothing",
                  "move " + sweep.foreign +
                      " out if it is yours, then run again (the rest is removed then), or "
                      "choose another TestFile");
    if (const std::string failed = remove_swept(sweep); !failed.empty())
      throw Error("test directory " + path + " was left behind by " + describe_owner(owner) +
                      "; removing its entries stopped: " + failed,
                  "nothing else may write into " + path + " meanwhile; run again");
    swept = sweep.items.size() + sweep.dirs.size();
  }
  if (S_ISDIR(st.st_mode) && ::rmdir(path.c_str()) != 0) // a module's directory
    throw Error("test directory " + path + " was left behind by " + describe_owner(owner) +
                    " and still holds entries its owner record does not describe",
                "remove the directory and its contents by hand");
  return swept;
}

} // namespace

OwnedFiles::OwnedFiles(bool overwrite, bool keep, bool clean_stale, bool inspect_only)
    : overwrite_(overwrite), keep_(keep), clean_stale_(clean_stale), inspect_only_(inspect_only) {}

void OwnedFiles::check(const std::string &path, std::ostream *note) {
  if (created_.count(path))
    return;
  if (path.empty())
    throw Error("the test file name is empty", "set TestFile to a path");
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    throw Error("test file " + path +
                    " is a symbolic link; pio-harness never follows or deletes a link it did "
                    "not create",
                "point TestFile at the link's target itself, or at a new file");
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  const std::string record = owner_record_path(path);
  struct stat rst;
  const bool record_exists = ::lstat(record.c_str(), &rst) == 0;
  const auto owner = read_owner_record(path);
  if (record_exists && !owner)
    throw Error(record +
                    " exists but is not a pio-bench owner record; pio-harness names the "
                    "owner record of test file " +
                    path +
                    " so and never removes or "
                    "overwrites a file it did not create",
                "rename or remove " + record + " if it is not needed, or choose another TestFile");
  if (!exists && !owner) {
    const auto slash = path.find_last_of('/');
    const std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    struct stat dst;
    if (::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
      throw Error("the directory of test file " + path + " (" + dir + ") does not exist",
                  "create the directory, or point TestFile at an existing one");
  }
  if (owner) {
    const OwnerState state = owner_state(*owner);
    if (state == OwnerState::Alive)
      throw Error("test file " + path + " belongs to " + describe_owner(*owner) +
                      ", which is still running",
                  "wait for that run to end, or choose another TestFile");
    if (state == OwnerState::Gone || clean_stale_) {
      if (const std::string why = file_differs(*owner, path); !why.empty())
        throw Error("test file " + path + " has the owner record " + record + " of " +
                        describe_owner(*owner) + ", which is no longer running, but " + why +
                        "; pio-harness removes neither",
                    "if " + path + " is yours, remove only the stale record " + record +
                        "; if it is a leftover of that run, remove both");
      if (inspect_only_) { // --check: no I/O, so nothing removed; the run will do it
        if (note)
          *note << "pio-harness: note: " + path +
                       (exists && S_ISDIR(st.st_mode) && !owner->trees.empty()
                            ? " (a directory of items)"
                            : std::string()) +
                       " was left behind by " + describe_owner(*owner) +
                       (state == OwnerState::Gone ? ", which is no longer running"
                                                  : " (--clean-stale)") +
                       "; the run removes it by its owner record " + record +
                       " (--check removes nothing)\n";
        return;
      }
      const std::size_t swept = exists ? remove_leftover(*owner, path, record, st) : 0;
      ::unlink(owner_record_path(path).c_str());
      if (note) // one write: a stream of its own interleaves with stdout between pieces
        *note << "pio-harness: note: removed " + path +
                     (swept ? " and the " + std::to_string(swept) + " entries below it" : "") +
                     ", left behind by " + describe_owner(*owner) +
                     (state == OwnerState::Gone ? ", which is no longer running"
                                                : " (--clean-stale)") +
                     "\n";
      return;
    }
    throw Error("test file " + path + " was left behind by " + describe_owner(*owner) +
                    " on another host, which may still be running",
                "if that run has ended, remove it with pio-harness --clean-stale (or by hand)");
  }
  if (exists && !overwrite_)
    throw Error("test file " + path +
                    " already exists and was not created by this run; "
                    "pio-harness will not overwrite it",
                "choose another TestFile, remove the file yourself, or allow it with "
                "'Overwrite on' / --overwrite");
}

void OwnedFiles::claim(const std::string &path, const TreeRules *trees) {
  if (created_.count(path))
    return;
  if (trees)
    if (const std::string problem = tree_rules_problem(*trees); !problem.empty())
      throw Error("the module claimed " + path + " with a bad tree rule: " + problem,
                  "fix the module's TreeRule (pio/tree_rule.hpp)");
  check(path, &std::cerr);
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0)
    return; // allowed to write it (Overwrite), never to delete it
  created_.insert(path);
  if (trees)
    trees_[path] = *trees;
  if (write_owner_record(path, trees)) {
    records_.insert(path);
    if (trees) // filled by every rank while the block runs: the record says the run is alive
      refresher_.watch(owner_record_path(path));
    // A directory holding items when the process dies keeps its record: the next run needs it.
    track_created(owner_record_path(path), trees ? path : std::string());
  }
  if (!keep_) {
    if (trees)
      track_tree(path); // emptied by its rules if this rank is stopped (guardian.hpp)
    else
      track_created(path);
  }
}

void OwnedFiles::join(const std::string &path) {
  if (!keep_)
    track_joined_tree(path);
}

bool OwnedFiles::release(const std::string &path) {
  if (!created_.count(path)) {
    untrack_created(path); // a directory this rank joined
    return false;
  }
  refresher_.unwatch(owner_record_path(path));
  if (records_.erase(path)) // only the record this run wrote, never a file of that name
    ::unlink(owner_record_path(path).c_str());
  untrack_created(owner_record_path(path));
  stamped_.erase(path);
  // A kept file stays this run's (a later test may write it again) but loses its owner record,
  // so a later run treats it as the user's and never removes it.
  if (keep_)
    return false;
  created_.erase(path);
  trees_.erase(path);
  untrack_created(path);
  // A directory a module claimed (the metadata module's test directory): removed if empty;
  // whatever is left inside it was not made by this run.
  return ::unlink(path.c_str()) == 0 || (errno == EISDIR && ::rmdir(path.c_str()) == 0);
}

std::string OwnedFiles::empty_tree(const std::string &path) {
  const auto rules = trees_.find(path);
  struct stat st;
  if (keep_ || rules == trees_.end() || !created_.count(path) || ::lstat(path.c_str(), &st) != 0 ||
      !S_ISDIR(st.st_mode))
    return {};
  const TreeSweep sweep = sweep_tree(path, rules->second);
  if (!sweep.foreign.empty())
    return path + " holds " + sweep.foreign + " (" + sweep.why + "), which this run did not make";
  return remove_swept(sweep);
}

void OwnedFiles::stamp(const std::string &path, bool open) {
  if (!records_.count(path))
    return;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return;
  const std::string state = std::to_string(open) + " " + std::to_string(st.st_dev) + " " +
                            std::to_string(st.st_ino) + " " + std::to_string(st.st_size) + " " +
                            std::to_string(st.st_mtim.tv_sec) + "." +
                            std::to_string(st.st_mtim.tv_nsec);
  if (open) // written now: the record says the run is alive (record_refresh.hpp)
    refresher_.watch(owner_record_path(path));
  else if (!trees_.count(path))
    refresher_.unwatch(owner_record_path(path));
  auto &last = stamped_[path];
  if (last == state)
    return;
  if (stamp_owner_record(path, open))
    last = state;
}

void OwnedFiles::stamp_all() {
  for (const auto &path : records_)
    stamp(path, false);
}

} // namespace pio::harness
