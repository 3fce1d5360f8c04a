#include "find_walk.hpp"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "pio/error.hpp"

namespace pio::metadata {

namespace {

struct Walk {
  const FindRule *rule;
  int share, shares;
  std::int64_t position = 0;
  FindCount count;

  /// Whether the entry is a file the rule matches. As pfind (IO500's find) does, the name is
  /// compared first, from the directory entry, and only a file whose name matches is stat-ed
  /// (for its size; or for its type where the file system leaves d_type unknown).
  bool examine(const std::string &child, const std::string &name, unsigned char type) {
    if (type != DT_REG && type != DT_UNKNOWN)
      return false;
    if (::fnmatch(rule->name_glob.c_str(), name.c_str(), 0) != 0)
      return false;
    if (type == DT_REG && rule->size < 0)
      return true;
    struct stat st;
    if (::lstat(child.c_str(), &st) != 0)
      throw Error("lstat " + child + ": " + std::strerror(errno),
                  "nothing else may change the test directory during the run");
    return S_ISREG(st.st_mode) && (rule->size < 0 || st.st_size == rule->size);
  }

  void dir(const std::string &path) {
    DIR *d = ::opendir(path.c_str());
    if (!d)
      throw Error("opendir " + path + ": " + std::strerror(errno),
                  "nothing else may change the test directory during the run");
    std::vector<std::pair<std::string, unsigned char>> entries;
    while (const dirent *e = ::readdir(d))
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
        entries.emplace_back(e->d_name, e->d_type);
    ::closedir(d);
    std::sort(entries.begin(), entries.end());
    for (const auto &[name, type] : entries) {
      const std::string child = path + "/" + name;
      const bool mine = position++ % shares == share;
      if (mine) {
        ++count.scanned;
        if (examine(child, name, type))
          ++count.matched;
      }
      bool is_dir = type == DT_DIR;
      struct stat st;
      if (type == DT_UNKNOWN) // file systems that do not fill d_type
        is_dir = ::lstat(child.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
      if (is_dir)
        dir(child);
    }
  }
};

} // namespace

FindCount find_walk(const std::string &top, const FindRule &rule, int share, int shares) {
  Walk w{&rule, share, shares, 0, FindCount{}};
  w.dir(top);
  return w.count;
}

} // namespace pio::metadata
