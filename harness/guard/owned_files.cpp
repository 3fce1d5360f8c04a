#include "guard/owned_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

#include "guard/owner_record.hpp"
#include "pio/error.hpp"
#include "guard/created_paths.hpp"

namespace pio::harness {

OwnedFiles::OwnedFiles(bool overwrite, bool keep, bool clean_stale)
    : overwrite_(overwrite), keep_(keep), clean_stale_(clean_stale) {}

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
  if (const auto owner = read_owner_record(path)) {
    const OwnerState state = owner_state(*owner);
    if (state == OwnerState::Alive)
      throw Error("test file " + path + " belongs to " + describe_owner(*owner) +
                      ", which is still running",
                  "wait for that run to end, or choose another TestFile");
    if (state == OwnerState::Gone || clean_stale_) {
      if (exists && S_ISREG(st.st_mode))
        ::unlink(path.c_str());
      if (exists && S_ISDIR(st.st_mode) && ::rmdir(path.c_str()) != 0) // a module's directory
        throw Error("test directory " + path + " was left behind by " + describe_owner(*owner) +
                        " and still holds that run's entries",
                    "remove the directory and its contents by hand");
      ::unlink(owner_record_path(path).c_str());
      if (note)
        *note << "pio-harness: note: removed " << path << ", left behind by "
              << describe_owner(*owner)
              << (state == OwnerState::Gone ? ", which is no longer running" : " (--clean-stale)")
              << "\n";
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

void OwnedFiles::claim(const std::string &path) {
  if (created_.count(path))
    return;
  check(path, &std::cerr);
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0)
    return; // allowed to write it (Overwrite), never to delete it
  created_.insert(path);
  if (write_owner_record(path))
    track_created(owner_record_path(path));
  if (!keep_)
    track_created(path);
}

bool OwnedFiles::release(const std::string &path) {
  if (!created_.count(path))
    return false;
  ::unlink(owner_record_path(path).c_str());
  untrack_created(owner_record_path(path));
  // A kept file stays this run's (a later test may write it again) but loses its owner record,
  // so a later run treats it as the user's and never removes it.
  if (keep_)
    return false;
  created_.erase(path);
  untrack_created(path);
  // A directory a module claimed (the metadata module's test directory): removed if empty;
  // whatever is left inside it was not made by this run.
  return ::unlink(path.c_str()) == 0 || (errno == EISDIR && ::rmdir(path.c_str()) == 0);
}

} // namespace pio::harness
