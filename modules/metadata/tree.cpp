#include "tree.hpp"

namespace pio::metadata {

const char *layout_name(Layout l) { return l == Layout::Hard ? "hard" : "easy"; }

std::int64_t Geometry::nodes() const {
  std::int64_t n = 0, level = 1;
  for (int d = 0; d <= depth; ++d) {
    n += level;
    level *= branching;
  }
  return n;
}

std::string Geometry::base(int owner) const {
  return layout == Layout::Hard ? top + "/shared" : top + "/rank." + std::to_string(owner);
}

std::vector<std::string> Geometry::directories(int owner) const {
  const std::int64_t n = nodes();
  std::vector<std::string> dirs(static_cast<size_t>(n));
  dirs[0] = base(owner);
  for (std::int64_t k = 1; k < n; ++k)
    dirs[static_cast<size_t>(k)] =
        dirs[static_cast<size_t>((k - 1) / branching)] + "/dir." + std::to_string(k);
  return dirs;
}

std::string Geometry::item_name(int owner, std::int64_t item) {
  return "file." + std::to_string(owner) + "." + std::to_string(item);
}

} // namespace pio::metadata
