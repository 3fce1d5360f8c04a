#pragma once
/// The bytes of each item, as mdtest writes and checks them (mdtest in the IOR 3.3 distribution:
/// generate_memory_pattern fills the write buffer once, then update_write_memory_pattern stamps
/// each item inside the timed create, and -X's verify_memory_pattern checks every byte inside the
/// timed read): a base that depends on the owner rank (pio::stamp_fill) and, per item, the first
/// 8 bytes of every 4 KiB block replaced by (item * k) | owner << 32, k the block's number from
/// 1, little-endian (an item of fewer than 8 bytes is the base alone, as in mdtest).

#include <cstdint>
#include <string>
#include <vector>

namespace pio::metadata {

/// What one owner's items hold.
class ItemContent {
public:
  /// The items `owner` writes, each `size` bytes.
  ItemContent(int owner, std::int64_t size);
  /// Item i's bytes (valid until the next call on this object).
  const char *bytes(std::int64_t item);
  /// The offset of the first byte of buf[0..size) that is not item i's, or -1 if all are.
  std::int64_t mismatch(const char *buf, std::int64_t item);
  /// The byte item i holds at `offset`.
  std::uint8_t expected(std::int64_t item, std::int64_t offset);
  /// Throws pio::Error naming the path, item, owner, offset, found and expected byte if buf is
  /// not item i's (Verify on or timed, mdtest -X).
  void check(const char *path, const char *buf, std::int64_t item);

private:
  int owner_;
  std::vector<char> buf_; ///< the base, with the last item's per-block words
};

} // namespace pio::metadata
