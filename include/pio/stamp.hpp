#pragma once
/// The data stamp used by Verify: every byte written is a function of the writing rank, its
/// file offset and a generation (re-write and read-modify-write change the generation), so a
/// byte in the wrong place, from the wrong rank, or stale, is caught.

#include <cstdint>

namespace pio {

/// The byte that `rank` writes at file offset `offset` in generation `generation`.
inline std::uint8_t stamp_byte(int rank, std::int64_t offset, int generation = 0) {
  // splitmix64 finaliser over (rank, offset, generation)
  std::uint64_t z = static_cast<std::uint64_t>(offset) * 0x9E3779B97F4A7C15ULL ^
                    (static_cast<std::uint64_t>(rank) + 1) * 0xBF58476D1CE4E5B9ULL ^
                    (static_cast<std::uint64_t>(generation) + 1) * 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<std::uint8_t>(z ^ (z >> 31));
}

/// Fills buf[0..len) with the stamps of file offsets [offset, offset+len).
inline void stamp_fill(std::uint8_t *buf, std::int64_t len, int rank, std::int64_t offset,
                       int generation = 0) {
  for (std::int64_t i = 0; i < len; ++i)
    buf[i] = stamp_byte(rank, offset + i, generation);
}

/// Returns the index of the first byte of buf that is not the stamp, or -1 if all match.
inline std::int64_t stamp_mismatch(const std::uint8_t *buf, std::int64_t len, int rank,
                                   std::int64_t offset, int generation = 0) {
  for (std::int64_t i = 0; i < len; ++i)
    if (buf[i] != stamp_byte(rank, offset + i, generation))
      return i;
  return -1;
}

} // namespace pio
