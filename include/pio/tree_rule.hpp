#pragma once
/// What a module may make under a directory it claims (ModuleContext::claim_tree), as data: the
/// harness stores the rule in the directory's owner record, so that a later run (or
/// --clean-stale) can remove exactly the entries a run that died may have made, and refuses to
/// touch anything if the directory holds one entry the rule does not allow
/// (docs/reference/reliability.md).

#include <cstdint>
#include <string>
#include <vector>

namespace pio {

/// A tree of numbered directories and numbered items (the shape of mdtest's -z / -b / -u trees):
/// under the claimed directory one root `root_name` (shared) or one root `root_name<owner>` per
/// owner; below each root `depth` levels of `branching` subdirectories, node k's children
/// k*b+1 .. k*b+b named `dir_prefix<child>` (node 0 is the root); owner o's item i is the regular
/// file `item_prefix<o>.<i>` of at most item_size bytes in node i mod nodes() of its root (its
/// own root when per_owner). Names hold no '/' or white space. A directory may hold several
/// trees (TreeRules) whose roots differ.
struct TreeRule {
  std::string root_name;             ///< the shared root, or the per-owner roots' prefix
  bool per_owner = false;            ///< a root per owner (its items only) or one shared root
  int owners = 1;                    ///< owners 0 .. owners-1 make items
  int depth = 0;                     ///< levels of subdirectories below a root
  int branching = 1;                 ///< subdirectories per directory
  std::string dir_prefix = "dir.";   ///< a subdirectory's name before its node number
  std::string item_prefix = "file."; ///< an item's name before "<owner>.<item>"
  std::int64_t items = 0;            ///< items per owner
  std::int64_t item_size = 0;        ///< the largest size of an item in bytes

  /// Directories in one root's tree: 1 + b + b^2 + ... + b^depth.
  std::int64_t nodes() const {
    std::int64_t n = 0, level = 1;
    for (int d = 0; d <= depth; ++d) {
      n += level;
      level *= branching;
    }
    return n;
  }
  /// The node (0 = the root) owner's item i lives in.
  std::int64_t node_of(std::int64_t item) const { return item % nodes(); }
  /// The parent node of node k > 0.
  std::int64_t parent_of(std::int64_t node) const { return (node - 1) / branching; }
  /// The root directory's name of owner's items.
  std::string root_of(int owner) const {
    return per_owner ? root_name + std::to_string(owner) : root_name;
  }
  /// The name of node k > 0.
  std::string dir_name(std::int64_t node) const { return dir_prefix + std::to_string(node); }
  /// The name of owner's item i.
  std::string item_name(int owner, std::int64_t item) const {
    return item_prefix + std::to_string(owner) + "." + std::to_string(item);
  }
};

/// The trees one claimed directory holds (the metadata module's easy and hard trees side by side).
using TreeRules = std::vector<TreeRule>;

} // namespace pio
