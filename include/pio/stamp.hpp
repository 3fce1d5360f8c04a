#pragma once
/// The data stamp used by Verify: every byte written is a function of the writing rank, its
/// file offset and a generation (re-write and read-modify-write change the generation), so a
/// byte in the wrong place, from the wrong rank, or stale, is caught.
///
/// The stamp is made of 8-byte words, one per 8-aligned file offset, so that filling or
/// checking costs about what IOR's data pattern does (one multiply and a compare per word):
/// `Verify timed` checks inside the timed unit, as IOR -R does.

#include <cstdint>
#include <cstring>

namespace pio {

/// What rank and generation add to every word of their stamp.
inline std::uint64_t stamp_key(int rank, int generation) {
  // splitmix64 finaliser over (rank, generation), once per fill or check
  std::uint64_t z = (static_cast<std::uint64_t>(rank) + 1) * 0xBF58476D1CE4E5B9ULL ^
                    (static_cast<std::uint64_t>(generation) + 1) * 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The stamp's word for file bytes [8 * word, 8 * word + 8); byte k of it is bits 8k..8k+7.
/// Distinct words of one key differ (a multiply by an odd constant and an xorshift are both
/// one-to-one).
inline std::uint64_t stamp_word(std::uint64_t key, std::int64_t word) {
  const std::uint64_t z = (static_cast<std::uint64_t>(word) + 1) * 0x9E3779B97F4A7C15ULL ^ key;
  return z ^ (z >> 29);
}

namespace stamp_detail {

/// The stamp's byte at file offset `offset`.
inline std::uint8_t byte_at(std::uint64_t key, std::int64_t offset) {
  return static_cast<std::uint8_t>(stamp_word(key, offset >> 3) >> (8 * (offset & 7)));
}

/// Writes w at p, byte k of the word first-to-last.
inline void store(std::uint8_t *p, std::uint64_t w) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(p, &w, 8);
#else
  for (int k = 0; k < 8; ++k)
    p[k] = static_cast<std::uint8_t>(w >> (8 * k));
#endif
}

/// The word store() wrote at p.
inline std::uint64_t load(const std::uint8_t *p) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
#else
  std::uint64_t w = 0;
  for (int k = 0; k < 8; ++k)
    w |= static_cast<std::uint64_t>(p[k]) << (8 * k);
  return w;
#endif
}

/// Bytes before the first 8-aligned offset at or after `offset`, at most len.
inline std::int64_t head(std::int64_t offset, std::int64_t len) {
  const std::int64_t h = (8 - (offset & 7)) & 7;
  return h < len ? h : len;
}

} // namespace stamp_detail

/// The byte that `rank` writes at file offset `offset` in generation `generation`.
inline std::uint8_t stamp_byte(int rank, std::int64_t offset, int generation = 0) {
  return stamp_detail::byte_at(stamp_key(rank, generation), offset);
}

/// Fills buf[0..len) with the stamps of file offsets [offset, offset+len).
inline void stamp_fill(std::uint8_t *buf, std::int64_t len, int rank, std::int64_t offset,
                       int generation = 0) {
  const std::uint64_t key = stamp_key(rank, generation);
  const std::int64_t h = stamp_detail::head(offset, len);
  for (std::int64_t i = 0; i < h; ++i)
    buf[i] = stamp_detail::byte_at(key, offset + i);
  std::int64_t i = h;
  for (; i + 8 <= len; i += 8)
    stamp_detail::store(buf + i, stamp_word(key, (offset + i) >> 3));
  for (; i < len; ++i)
    buf[i] = stamp_detail::byte_at(key, offset + i);
}

/// Returns the index of the first byte of buf that is not the stamp (each byte xor-ed with
/// `mask`, as read-modify-write leaves it), or -1 if all match.
inline std::int64_t stamp_mismatch(const std::uint8_t *buf, std::int64_t len, int rank,
                                   std::int64_t offset, int generation = 0, std::uint8_t mask = 0) {
  const std::uint64_t key = stamp_key(rank, generation);
  const std::uint64_t word_mask = mask * 0x0101010101010101ULL;
  const std::int64_t h = stamp_detail::head(offset, len);
  for (std::int64_t i = 0; i < h; ++i)
    if (buf[i] != (stamp_detail::byte_at(key, offset + i) ^ mask))
      return i;
  std::int64_t i = h;
  for (; i + 8 <= len; i += 8)
    if (stamp_detail::load(buf + i) != (stamp_word(key, (offset + i) >> 3) ^ word_mask))
      break; // the byte is found below
  for (; i < len; ++i)
    if (buf[i] != (stamp_detail::byte_at(key, offset + i) ^ mask))
      return i;
  return -1;
}

} // namespace pio
