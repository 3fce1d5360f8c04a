// Overlapping ranks (write_overlap.hpp): per unit, every rank's extents sorted by offset and swept
// once, keeping the extent that reaches furthest. The first extent that overlaps an earlier one of
// another rank overlaps that furthest-reaching one unless both are the same rank, and then the
// earlier pair would have been found first: the sweep finds an overlap if there is one.
#include "write_overlap.hpp"

#include <algorithm>
#include <vector>

namespace pio::patterns {

namespace {

struct Owned {
  std::int64_t begin, end;
  int rank;
};

std::string range(std::int64_t begin, std::int64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

} // namespace

std::optional<std::string> find_rank_overlap(const Geometry &geometry, int ranks,
                                             std::int64_t units, std::int64_t max_extents) {
  std::int64_t budget = max_extents;
  std::vector<Owned> all;
  for (std::int64_t u = 0; u < units && budget > 0; ++u) {
    all.clear();
    for (int r = 0; r < ranks && budget > 0; ++r)
      for (const Extent &e : geometry.extents(r, u))
        if (e.length > 0 && budget-- > 0)
          all.push_back({e.offset, e.offset + e.length, r});
    std::sort(all.begin(), all.end(),
              [](const Owned &a, const Owned &b) { return a.begin < b.begin; });
    const Owned *furthest = nullptr;
    for (const Owned &e : all) {
      if (furthest && e.begin < furthest->end && e.rank != furthest->rank) {
        const std::int64_t end = std::min(e.end, furthest->end);
        return "in work unit " + std::to_string(u) + " rank " + std::to_string(furthest->rank) +
               "'s bytes " + range(furthest->begin, furthest->end) + " and rank " +
               std::to_string(e.rank) + "'s bytes " + range(e.begin, e.end) + " overlap in " +
               range(e.begin, end) + " (" + std::to_string(end - e.begin) + " byte" +
               (end - e.begin == 1 ? "" : "s") + ")";
      }
      if (!furthest || e.end > furthest->end)
        furthest = &e;
    }
  }
  return std::nullopt;
}

} // namespace pio::patterns
