#pragma once
/// Which files the harness may touch (docs/reliability.md): it never deletes, truncates or overwrites a
/// file it did not create in this run, and deletes what it created unless asked to keep it.

#include <set>
#include <string>

namespace pio::harness {

/// The per-rank record of test files created by this run.
class TestFiles {
public:
  /// overwrite: an existing file may be written (it is then never deleted);
  /// keep: files created by this run are kept.
  TestFiles(bool overwrite, bool keep) : overwrite_(overwrite), keep_(keep) {}
  /// Throws pio::Error if path exists, was not created by this run and overwrite is off.
  /// Call before opening; remembers whether this run creates the file.
  void claim(const std::string &path);
  /// Deletes path if this run created it and keep is off. Returns true if deleted.
  bool release(const std::string &path);
  /// True if this run created path.
  bool created(const std::string &path) const { return created_.count(path) != 0; }

private:
  bool overwrite_;
  bool keep_;
  std::set<std::string> created_;
};

} // namespace pio::harness
