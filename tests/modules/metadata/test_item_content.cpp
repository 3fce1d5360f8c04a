// The bytes of each item (mdtest's write buffer, stamped per item inside the create) and the
// check Verify on / timed makes of each item read (mdtest -X).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "item_content.hpp"
#include "pio/error.hpp"
#include "pio/stamp.hpp"

using pio::metadata::ItemContent;

namespace {

/// The little-endian 64-bit word at buf[at].
std::uint64_t word_at(const char *buf, std::int64_t at) {
  std::uint64_t w = 0;
  for (int b = 0; b < 8; ++b)
    w |= static_cast<std::uint64_t>(static_cast<unsigned char>(buf[at + b])) << (8 * b);
  return w;
}

} // namespace

TEST_CASE("an item is the owner's stamp with (item * k) | owner << 32 at each 4 KiB block") {
  const std::int64_t size = 9000; // blocks at 0, 4096 and 8192
  ItemContent c(3, size);
  const std::string item7(c.bytes(7), static_cast<size_t>(size));
  CHECK(word_at(item7.data(), 0) == (7ull | 3ull << 32));
  CHECK(word_at(item7.data(), 4096) == (14ull | 3ull << 32));
  CHECK(word_at(item7.data(), 8192) == (21ull | 3ull << 32));
  for (std::int64_t at : {8L, 100L, 4095L, 4104L, 8200L, 8999L})
    CHECK(static_cast<std::uint8_t>(item7[static_cast<size_t>(at)]) == pio::stamp_byte(3, at));
  // Another item of the same owner differs only in the stamped words.
  const std::string item8(c.bytes(8), static_cast<size_t>(size));
  std::vector<std::int64_t> differ;
  for (std::int64_t at = 0; at < size; ++at)
    if (item7[static_cast<size_t>(at)] != item8[static_cast<size_t>(at)])
      differ.push_back(at);
  CHECK(differ == std::vector<std::int64_t>{0, 4096, 8192});
  // Another owner's item 7 differs from the base on.
  ItemContent other(4, size);
  CHECK(std::memcmp(other.bytes(7) + 8, item7.data() + 8, 100) != 0);
  // An item of fewer than 8 bytes is the base alone (mdtest stamps only whole words).
  ItemContent tiny(3, 5);
  for (std::int64_t at = 0; at < 5; ++at)
    CHECK(static_cast<std::uint8_t>(tiny.bytes(9)[at]) == pio::stamp_byte(3, at));
}

TEST_CASE("the check passes the right bytes and names the first wrong one") {
  const std::int64_t size = 3901; // IO500's hard item
  ItemContent c(1, size);
  std::string read(c.bytes(42), static_cast<size_t>(size));
  CHECK(c.mismatch(read.data(), 42) == -1);
  CHECK_NOTHROW(c.check("/t/file.1.42", read.data(), 42));
  // The same bytes are not item 41's: the stamped word differs at byte 0.
  CHECK(c.mismatch(read.data(), 41) == 0);

  const auto want = static_cast<unsigned char>(read[1000]);
  read[1000] = static_cast<char>(want ^ 0x5a);
  read[2000] = static_cast<char>(read[2000] ^ 1); // a later one: the first is named
  CHECK(c.mismatch(read.data(), 42) == 1000);
  CHECK(c.expected(42, 1000) == want);
  char hex[2][8];
  std::snprintf(hex[0], sizeof hex[0], "0x%02x", want ^ 0x5a);
  std::snprintf(hex[1], sizeof hex[1], "0x%02x", want);
  try {
    c.check("/t/file.1.42", read.data(), 42);
    FAIL("no error");
  } catch (const pio::Error &e) {
    CHECK(std::string(e.what()) == std::string("Verify: /t/file.1.42 (item 42 of rank 1): "
                                               "byte 1000 of 3901 is ") +
                                       hex[0] + ", expected " + hex[1]);
    CHECK(e.hint().find("nothing else may write into the test directory") != std::string::npos);
  }
}
