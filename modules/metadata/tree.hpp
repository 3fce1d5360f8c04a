#pragma once
/// Where mdtest puts its items (mdtest in the IOR 3.3 distribution, -z depth -b branching -n
/// items -u unique directory per task): a tree of directories per rank ("easy") or one shared
/// tree ("hard"), and each item's path. Pure functions of the geometry, so a test can check the
/// tree on disk against them.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/tree_rule.hpp"

namespace pio::metadata {

/// Whether each rank has its own tree (mdtest -u, IO500 mdtest-easy) or all share one
/// (IO500 mdtest-hard).
enum class Layout { Easy, Hard };

/// "easy" or "hard".
const char *layout_name(Layout l);

/// The shape of one benchmark's tree and its items.
struct Geometry {
  std::string top;              ///< the test directory (TestFile); everything lives below it
  Layout layout = Layout::Easy; ///< a tree per rank or one shared
  std::int64_t items = 0;       ///< items per rank
  int depth = 0;                ///< tree depth (0: the base directory only; mdtest -z)
  int branching = 1;            ///< subdirectories per directory (mdtest -b)

  /// Directories in one tree: 1 + b + b^2 + ... + b^depth.
  std::int64_t nodes() const;
  /// The base directory of the tree `owner`'s items live in: top/rank.<owner> (easy) or
  /// top/shared (hard).
  std::string base(int owner) const;
  /// Every directory of the tree rooted at base(owner), parents before children (node k's
  /// children are k*b+1 .. k*b+b; node 0 is the base).
  std::vector<std::string> directories(int owner) const;
  /// The node item i lives in: i mod nodes() (items spread round-robin over the tree).
  std::int64_t node_of(std::int64_t item) const { return item % nodes(); }
  /// The file name of owner's item i: file.<owner>.<i>.
  static std::string item_name(int owner, std::int64_t item);
  /// What `owners` ranks may make under top, items of at most item_size bytes: the rule the
  /// harness keeps in the test directory's owner record (one spelling of the names above).
  pio::TreeRule rule(int owners, std::int64_t item_size) const;
};

} // namespace pio::metadata
