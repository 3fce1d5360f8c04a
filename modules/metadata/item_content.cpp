#include "item_content.hpp"

#include <cstdio>
#include <cstring>

#include "pio/error.hpp"
#include "pio/stamp.hpp"

namespace pio::metadata {

namespace {

constexpr std::int64_t kBlock = 4096; // mdtest: a word every 512 words of 8 bytes

} // namespace

ItemContent::ItemContent(int owner, std::int64_t size)
    : owner_(owner), buf_(static_cast<std::size_t>(size)) {
  stamp_fill(reinterpret_cast<std::uint8_t *>(buf_.data()), size, owner, 0);
}

const char *ItemContent::bytes(std::int64_t item) {
  const auto size = static_cast<std::int64_t>(buf_.size());
  std::uint64_t k = 1;
  for (std::int64_t at = 0; at + 8 <= size; at += kBlock, ++k) {
    const std::uint64_t word = static_cast<std::uint32_t>(static_cast<std::uint64_t>(item) * k) |
                               static_cast<std::uint64_t>(owner_) << 32;
    for (int b = 0; b < 8; ++b)
      buf_[static_cast<std::size_t>(at + b)] = static_cast<char>(word >> (8 * b));
  }
  return buf_.data();
}

std::int64_t ItemContent::mismatch(const char *buf, std::int64_t item) {
  const char *want = bytes(item);
  if (std::memcmp(buf, want, buf_.size()) == 0)
    return -1;
  std::int64_t at = 0;
  while (buf[at] == want[at])
    ++at;
  return at;
}

std::uint8_t ItemContent::expected(std::int64_t item, std::int64_t offset) {
  return static_cast<std::uint8_t>(bytes(item)[offset]);
}

void ItemContent::check(const char *path, const char *buf, std::int64_t item) {
  const std::int64_t at = mismatch(buf, item);
  if (at < 0)
    return;
  char found[8], want[8];
  std::snprintf(found, sizeof found, "0x%02x", static_cast<unsigned char>(buf[at]));
  std::snprintf(want, sizeof want, "0x%02x", expected(item, at));
  throw Error("Verify: " + std::string(path) + " (item " + std::to_string(item) + " of rank " +
                  std::to_string(owner_) + "): byte " + std::to_string(at) + " of " +
                  std::to_string(buf_.size()) + " is " + found + ", expected " + want,
              "the file changed between create and read: nothing else may write into the test "
              "directory during the run; otherwise the file system returned wrong data");
}

} // namespace pio::metadata
