#include "tree_on_disk.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <cstring>

namespace pio::test {

pio::metadata::Geometry geometry_of(const std::string &top, pio::metadata::Layout layout,
                                    std::int64_t items, int depth, int branching) {
  pio::metadata::Geometry g;
  g.top = top;
  g.layout = layout;
  g.items = items;
  g.depth = depth;
  g.branching = branching;
  return g;
}

namespace {

void walk(const std::string &dir, const std::string &rel, std::map<std::string, long> &out) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return;
  while (const dirent *e = ::readdir(d)) {
    if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, ".."))
      continue;
    const std::string p = dir + "/" + e->d_name, r = rel + e->d_name;
    struct stat st;
    ::lstat(p.c_str(), &st);
    if (S_ISDIR(st.st_mode)) {
      out[r] = -1;
      walk(p, r + "/", out);
    } else {
      out[r] = static_cast<long>(st.st_size);
    }
  }
  ::closedir(d);
}

} // namespace

std::map<std::string, long> tree_of(const std::string &dir) {
  std::map<std::string, long> out;
  walk(dir, "", out);
  return out;
}

std::map<std::string, long> expected_tree(const pio::metadata::Geometry &g, int ranks, long size,
                                          std::int64_t items) {
  std::map<std::string, long> out;
  const std::string top = g.top;
  for (int r = 0; r < ranks; ++r) {
    const auto dirs = g.directories(r);
    for (const auto &d : dirs)
      out[d.substr(top.size() + 1)] = -1;
    for (std::int64_t i = 0; i < items; ++i)
      out[dirs[static_cast<size_t>(g.node_of(i))].substr(top.size() + 1) + "/" +
          pio::metadata::Geometry::item_name(r, i)] = size;
  }
  return out;
}

} // namespace pio::test
