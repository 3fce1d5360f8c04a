#include "find_walk.hpp"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "pio/error.hpp"

namespace pio::metadata {

namespace {

const char *kHint = "nothing else may change the test directory during the run";

/// Whether the entry is a file the rule matches. The name is compared first, and only a file
/// whose name matches is stat-ed.
bool matches(const FindRule &rule, const std::string &child, const char *name, unsigned char type) {
  if (type != DT_REG && type != DT_UNKNOWN)
    return false;
  if (::fnmatch(rule.name_glob.c_str(), name, 0) != 0)
    return false;
  if (type == DT_REG && rule.size < 0)
    return true;
  struct stat st;
  if (::lstat(child.c_str(), &st) != 0)
    throw Error("lstat " + child + ": " + std::strerror(errno), kHint);
  return S_ISREG(st.st_mode) && (rule.size < 0 || st.st_size == rule.size);
}

/// Closes the directory stream on every way out.
struct DirStream {
  DIR *d;
  ~DirStream() { ::closedir(d); }
};

} // namespace

FindCount find_in_dir(const std::string &dir, const FindRule &rule,
                      std::vector<std::string> &subdirs) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    throw Error("opendir " + dir + ": " + std::strerror(errno), kHint);
  DirStream stream{d};
  FindCount count;
  std::string child = dir + "/";
  const size_t stem = child.size();
  while (const dirent *e = ::readdir(d)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
      continue;
    child.resize(stem);
    child += e->d_name;
    ++count.scanned;
    if (rule.progress) // one entry further (StepTimeout's watchdog)
      rule.progress->store(rule.progress->load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
    if (matches(rule, child, e->d_name, e->d_type))
      ++count.matched;
    bool is_dir = e->d_type == DT_DIR;
    struct stat st;
    if (e->d_type == DT_UNKNOWN) // file systems that do not fill d_type
      is_dir = ::lstat(child.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    if (is_dir)
      subdirs.push_back(child);
  }
  return count;
}

FindCount find_walk(const std::string &top, const FindRule &rule) {
  FindCount count;
  std::vector<std::string> level{top}, next;
  while (!level.empty()) {
    next.clear();
    for (const auto &dir : level)
      count += find_in_dir(dir, rule, next);
    level.swap(next);
  }
  return count;
}

} // namespace pio::metadata
