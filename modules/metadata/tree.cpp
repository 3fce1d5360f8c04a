#include "tree.hpp"

namespace pio::metadata {

const char *layout_name(Layout l) { return l == Layout::Hard ? "hard" : "easy"; }

pio::TreeRule Geometry::rule(int owners, std::int64_t item_size) const {
  pio::TreeRule r;
  r.root_name = layout == Layout::Hard ? "shared" : "rank.";
  r.per_owner = layout == Layout::Easy;
  r.owners = owners;
  r.depth = depth;
  r.branching = branching;
  r.items = items;
  r.item_size = item_size;
  return r;
}

std::int64_t Geometry::nodes() const { return rule(1, 0).nodes(); }

std::string Geometry::base(int owner) const { return top + "/" + rule(1, 0).root_of(owner); }

std::vector<std::string> Geometry::directories(int owner) const {
  const pio::TreeRule r = rule(1, 0);
  const std::int64_t n = r.nodes();
  std::vector<std::string> dirs(static_cast<size_t>(n));
  dirs[0] = base(owner);
  for (std::int64_t k = 1; k < n; ++k)
    dirs[static_cast<size_t>(k)] = dirs[static_cast<size_t>(r.parent_of(k))] + "/" + r.dir_name(k);
  return dirs;
}

std::string Geometry::item_name(int owner, std::int64_t item) {
  return pio::TreeRule().item_name(owner, item);
}

} // namespace pio::metadata
