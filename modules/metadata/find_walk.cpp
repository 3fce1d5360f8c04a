#include "find_walk.hpp"

#include <fnmatch.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "pio/error.hpp"

namespace pio::metadata {

namespace {

const char *kHint = "nothing else may change the test directory during the run";

/// The entry at path: a stat failure other than ENOENT is an error naming the path.
std::optional<io::FileStat> stat_of(io::Backend &b, const std::string &path) {
  try {
    return b.stat(path.c_str());
  } catch (const Error &e) {
    throw Error(e.what(), kHint);
  }
}

/// Whether the entry is a file the rule matches. The name is compared first, and only a file
/// whose name matches is stat-ed.
bool matches(io::Backend &b, const FindRule &rule, const std::string &child, const char *name,
             io::EntryType type) {
  if (type != io::EntryType::File && type != io::EntryType::Unknown)
    return false;
  if (::fnmatch(rule.name_glob.c_str(), name, 0) != 0)
    return false;
  if (type == io::EntryType::File && rule.size < 0)
    return true;
  const auto st = stat_of(b, child);
  if (!st)
    throw Error("stat " + child + ": " + std::strerror(ENOENT), kHint);
  return st->type == io::FileStat::Type::File && (rule.size < 0 || st->size == rule.size);
}

} // namespace

FindCount find_in_dir(io::Backend &b, const std::string &dir, const FindRule &rule,
                      std::vector<std::string> &subdirs) {
  FindCount count;
  std::string child = dir + "/";
  const size_t stem = child.size();
  try {
    b.readdir(dir.c_str(), [&](const char *name, io::EntryType type) {
      child.resize(stem);
      child += name;
      ++count.scanned;
      if (rule.progress) // one entry further (StepTimeout's watchdog)
        rule.progress->store(rule.progress->load(std::memory_order_relaxed) + 1,
                             std::memory_order_relaxed);
      if (matches(b, rule, child, name, type))
        ++count.matched;
      bool is_dir = type == io::EntryType::Directory;
      if (type == io::EntryType::Unknown) { // file systems that do not fill d_type
        const auto st = stat_of(b, child);
        is_dir = st && st->type == io::FileStat::Type::Directory;
      }
      if (is_dir)
        subdirs.push_back(child);
    });
  } catch (const Error &e) {
    throw Error(e.what(), kHint);
  }
  return count;
}

FindCount find_walk(io::Backend &b, const std::string &top, const FindRule &rule) {
  FindCount count;
  std::vector<std::string> level{top}, next;
  while (!level.empty()) {
    next.clear();
    for (const auto &dir : level)
      count += find_in_dir(b, dir, rule, next);
    level.swap(next);
  }
  return count;
}

} // namespace pio::metadata
