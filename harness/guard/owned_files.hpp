#pragma once
/// Which files the harness may touch (DESIGN §7, docs/reference/reliability.md): it never deletes,
/// truncates or overwrites a file it did not create in this run, never follows or deletes a
/// symbolic link, and deletes what it created unless asked to keep it. What it creates carries
/// an owner record (owner_record.hpp), so that a leftover of a run that died is recognised.

#include <iosfwd>
#include <map>
#include <set>
#include <string>

#include "guard/record_refresh.hpp"
#include "pio/tree_rule.hpp"

namespace pio::harness {

/// The per-rank record of test files created by this run.
class OwnedFiles {
public:
  /// overwrite: an existing file may be written (it is then never deleted);
  /// keep: files created by this run are kept;
  /// clean_stale: a leftover of a pio-bench run whose owner cannot be shown alive (another
  /// host) is removed too (--clean-stale); one whose owner is provably gone always is.
  /// inspect_only (--check): check() removes nothing; it says what a run would remove.
  OwnedFiles(bool overwrite, bool keep, bool clean_stale = false, bool inspect_only = false);
  /// Checks that path may be created or written, without creating anything: throws pio::Error
  /// if it is a symbolic link, or exists, was not created by this run, and overwrite is off;
  /// if `<path>.pio-owner` exists and is not an owner record; or if its directory does not
  /// exist. Removes a leftover of a dead pio-bench run first (with a note on `note`), and the
  /// hidden files ROMIO made beside it, but only while the owner record proves the file is the
  /// one that run left (device, inode, size, modification time); otherwise throws naming both.
  /// A leftover directory is emptied by the tree rules in its record (tree_sweep.hpp): only if
  /// every entry below it is one the rules allow, else nothing is touched and the error names
  /// the first foreign entry. With inspect_only, nothing is removed: the note says what a run
  /// would remove (the proof of a file is checked; a directory's entries are not read).
  void check(const std::string &path, std::ostream *note = nullptr);
  /// check(), then remembers that this run creates path and writes its owner record (with the
  /// tree rules of a directory a module fills). Call before opening.
  void claim(const std::string &path, const TreeRules *trees = nullptr);
  /// Notes that this rank makes items in `path`, a directory another rank of the block claimed
  /// with tree rules: its messages name it if it is stopped; it never removes it.
  void join(const std::string &path);
  /// Deletes path (and its owner record) if this run created it and keep is off; with keep,
  /// only the record goes (the file is the user's now). Returns true if path was deleted.
  bool release(const std::string &path);
  /// Empties a directory this run claimed with tree rules, by those rules alone (tree_sweep.hpp):
  /// what a chain of blocks left when its last block did not run. Returns "" if it is empty now
  /// (or is no such directory, or keep is on), else why nothing or not everything was removed.
  std::string empty_tree(const std::string &path);
  /// True if this run created path.
  bool created(const std::string &path) const { return created_.count(path) != 0; }
  /// Records in path's owner record the file as it is now (device, inode, size, modification
  /// time): after the harness opened it (`open`: the run writes it), and after it closed it,
  /// so that a later run removes a leftover only while it is still the file this run left.
  /// Does nothing for a path whose record this run did not write.
  void stamp(const std::string &path, bool open);
  /// stamp(path, false) for every file this run created whose state changed since its last
  /// stamp (the files modules claimed: the harness knows them at rest between tests).
  void stamp_all();

private:
  bool overwrite_;
  bool keep_;
  bool clean_stale_;
  bool inspect_only_;
  std::set<std::string> created_;
  std::set<std::string> records_;              ///< paths whose owner record this run wrote
  std::map<std::string, TreeRules> trees_;     ///< claimed directories -> their rules
  std::map<std::string, std::string> stamped_; ///< path -> its state at the last stamp
  RecordRefresher refresher_; ///< touches the records of files open and trees in use
};

} // namespace pio::harness
