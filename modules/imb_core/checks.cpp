#include <cstring>

#include "kernel.hpp"
#include "pio/error.hpp"

namespace imb {

std::string expect_bytes(const char *got, int sender, std::int64_t from, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k)
    if (static_cast<std::uint8_t>(got[k]) != byte_of(sender, from + k))
      return "byte " + std::to_string(k) + " is " +
             std::to_string(static_cast<std::uint8_t>(got[k])) + ", rank " +
             std::to_string(sender) + " sent " + std::to_string(byte_of(sender, from + k));
  return {};
}

std::string expect_blocks(const char *got, int np, std::int64_t x, std::int64_t from) {
  for (int p = 0; p < np; ++p)
    if (auto e = expect_bytes(got + p * x, p, from, x); !e.empty())
      return "block " + std::to_string(p) + ": " + e;
  return {};
}

Blocks equal_blocks(int np, int count) {
  Blocks b;
  b.counts.assign(static_cast<size_t>(np), count);
  for (int p = 0; p < np; ++p)
    b.displs.push_back(p * count);
  return b;
}

std::string expect_sums(const char *got, int np, std::int64_t first, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) {
    float want = 0, have = 0;
    for (int r = 0; r < np; ++r)
      want += float_of(r, first + k);
    std::memcpy(&have, got + k * 4, sizeof have);
    if (have != want)
      return "element " + std::to_string(first + k) + " is " + std::to_string(have) +
             ", the sum is " + std::to_string(want);
  }
  return {};
}

Share scatter_share(std::int64_t l, int np, int i) {
  const std::int64_t r = l / np, s = l % np;
  if (i < s)
    return {i * (r + 1), r + 1};
  return {i * r + s, r};
}

std::vector<int> reduce_scatter_counts(std::int64_t l, int np, bool split) {
  std::vector<int> counts(static_cast<size_t>(np));
  for (int p = 0; p < np; ++p)
    counts[static_cast<size_t>(p)] = static_cast<int>(split ? scatter_share(l, np, p).count : l);
  return counts;
}

} // namespace imb
