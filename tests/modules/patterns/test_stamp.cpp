// The Verify stamp (pio/stamp.hpp): the word-wise fill and check agree with the byte rule at
// every alignment, the check names the first wrong byte, and rank, generation and place all
// change the bytes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "pio/stamp.hpp"

using pio::stamp_byte;
using pio::stamp_fill;
using pio::stamp_mismatch;

TEST_CASE("stamp_fill writes stamp_byte at every alignment and length", "[stamp]") {
  for (std::int64_t offset = 0; offset < 17; ++offset)
    for (std::int64_t len = 0; len < 41; ++len) {
      std::vector<std::uint8_t> buf(static_cast<size_t>(len) + 2, 0xA5);
      stamp_fill(buf.data() + 1, len, 3, offset, 2);
      CHECK(buf.front() == 0xA5); // nothing written outside [0, len)
      CHECK(buf.back() == 0xA5);
      for (std::int64_t i = 0; i < len; ++i)
        REQUIRE(buf[static_cast<size_t>(i) + 1] == stamp_byte(3, offset + i, 2));
      CHECK(stamp_mismatch(buf.data() + 1, len, 3, offset, 2) == -1);
    }
}

TEST_CASE("stamp_mismatch returns the first wrong byte, in the head, the words or the tail",
          "[stamp]") {
  const std::int64_t offset = 5, len = 37; // 3 head bytes, 4 words, 2 tail bytes
  std::vector<std::uint8_t> buf(static_cast<size_t>(len));
  for (std::int64_t p = 0; p < len; ++p) {
    stamp_fill(buf.data(), len, 1, offset);
    buf[static_cast<size_t>(p)] ^= 0x01;
    REQUIRE(stamp_mismatch(buf.data(), len, 1, offset) == p);
    buf[static_cast<size_t>(len - 1)] ^= 0x80; // a second wrong byte later does not move it
    REQUIRE(stamp_mismatch(buf.data(), len, 1, offset) == p);
  }
}

namespace {

/// How many of n bytes at `offset` two stamps share.
int shared_bytes(int rank_a, int gen_a, std::int64_t off_a, int rank_b, int gen_b,
                 std::int64_t off_b, int n) {
  int same = 0;
  for (int i = 0; i < n; ++i)
    same += stamp_byte(rank_a, off_a + i, gen_a) == stamp_byte(rank_b, off_b + i, gen_b);
  return same;
}

} // namespace

TEST_CASE("another rank, generation or place gives other bytes", "[stamp]") {
  const int n = 1 << 16;
  // By chance about n / 256 = 256 bytes agree; a structured stamp would share far more.
  CHECK(shared_bytes(0, 0, 0, 1, 0, 0, n) < 512);
  CHECK(shared_bytes(0, 0, 0, 0, 1, 0, n) < 512);
  CHECK(shared_bytes(2, 0, 0, 2, 0, 8, n) < 512);    // the next word's stamp
  CHECK(shared_bytes(2, 0, 0, 2, 0, 1, n) < 512);    // one byte along
  CHECK(shared_bytes(2, 0, 0, 2, 0, 4096, n) < 512); // the next page's stamp
  std::vector<std::uint8_t> buf(4096);
  stamp_fill(buf.data(), 4096, 0, 1 << 20, 0);
  CHECK(stamp_mismatch(buf.data(), 4096, 1, 1 << 20, 0) >= 0);
  CHECK(stamp_mismatch(buf.data(), 4096, 0, 1 << 20, 1) >= 0);
  CHECK(stamp_mismatch(buf.data(), 4096, 0, (1 << 20) + 8, 0) >= 0);
}

TEST_CASE("stamp_mismatch with a mask checks the stamp every byte of which is xor-ed", "[stamp]") {
  const std::int64_t offset = 3, len = 29;
  std::vector<std::uint8_t> buf(static_cast<size_t>(len));
  stamp_fill(buf.data(), len, 4, offset, 1);
  CHECK(stamp_mismatch(buf.data(), len, 4, offset, 1, 0x5A) == 0); // not yet modified
  for (auto &b : buf)
    b ^= 0x5A;
  CHECK(stamp_mismatch(buf.data(), len, 4, offset, 1, 0x5A) == -1);
  CHECK(stamp_mismatch(buf.data(), len, 4, offset, 1) == 0);
  buf[20] ^= 0x5A; // one byte left unmodified, inside a word
  CHECK(stamp_mismatch(buf.data(), len, 4, offset, 1, 0x5A) == 20);
}
