// A unit's extents in file order for a file view (extent_order.hpp).
#include "extent_order.hpp"

#include <algorithm>

namespace pio::patterns {

namespace {

std::string range(const Extent &e) {
  return "[" + std::to_string(e.offset) + ", " + std::to_string(e.offset + e.length) + ")";
}

} // namespace

bool in_file_order(const std::vector<Extent> &extents) {
  std::int64_t end = 0;
  bool first = true;
  for (const Extent &e : extents) {
    if (e.length == 0)
      continue;
    if (!first && e.offset < end)
      return false;
    first = false;
    end = e.offset + e.length;
  }
  return true;
}

std::string sort_for_view(std::vector<Extent> &extents) {
  std::stable_sort(extents.begin(), extents.end(),
                   [](const Extent &a, const Extent &b) { return a.offset < b.offset; });
  const Extent *last = nullptr;
  for (const Extent &e : extents) {
    if (e.length == 0)
      continue;
    if (last && e.offset < last->offset + last->length)
      return range(*last) + " and " + range(e);
    last = &e;
  }
  return "";
}

std::optional<std::string> find_unviewable_unit(const Geometry &geometry, int ranks,
                                                std::int64_t units, std::int64_t max_extents) {
  std::int64_t budget = max_extents;
  for (std::int64_t u = 0; u < units && budget > 0; ++u)
    for (int r = 0; r < ranks && budget > 0; ++r) {
      std::vector<Extent> e = geometry.extents(r, u);
      budget -= static_cast<std::int64_t>(e.size());
      if (in_file_order(e))
        continue;
      const std::string where =
          "in work unit " + std::to_string(u) + " rank " + std::to_string(r) + "'s extents ";
      // The pair out of order, for the message: the first extent that starts before the end of
      // the one before it.
      std::string pair;
      std::int64_t end = 0;
      const Extent *prev = nullptr;
      for (const Extent &x : e) {
        if (x.length == 0)
          continue;
        if (prev && x.offset < end) {
          pair = range(x) + " after " + range(*prev);
          break;
        }
        prev = &x;
        end = x.offset + x.length;
      }
      std::vector<Extent> sorted = e;
      const std::string overlap = sort_for_view(sorted);
      if (!overlap.empty())
        return where + overlap +
               " overlap each other: a file view cannot hold a byte twice (MPI-4.0 §14.3, a file "
               "opened for writing)";
      const MemoryLayout memory = geometry.memory(r, u);
      if (memory.type.get() != MPI_DATATYPE_NULL)
        return where + "are out of file order (" + pair +
               ") and its memory is a datatype (Geometry::memory), whose pieces the engine cannot "
               "reorder for the file view";
    }
  return std::nullopt;
}

} // namespace pio::patterns
