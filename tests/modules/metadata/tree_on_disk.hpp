#pragma once
/// The metadata module's trees as the tests compare them: what is on disk below a directory,
/// and what the geometry says create leaves there.

#include <cstdint>
#include <map>
#include <string>

#include "tree.hpp"

namespace pio::test {

/// A tree's geometry: top directory, layout, items per rank, depth and branching.
pio::metadata::Geometry geometry_of(const std::string &top, pio::metadata::Layout layout,
                                    std::int64_t items, int depth, int branching);

/// Every entry below dir (recursively), path relative to dir -> size (-1 for a directory).
std::map<std::string, long> tree_of(const std::string &dir);

/// What the geometry says the tree holds after create of `items` items of `size` bytes by each
/// of `ranks` ranks: path relative to g.top -> size (-1 for a directory).
std::map<std::string, long> expected_tree(const pio::metadata::Geometry &g, int ranks, long size,
                                          std::int64_t items);

} // namespace pio::test
