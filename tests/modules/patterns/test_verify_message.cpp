// What Verify says when a byte is wrong (docs/reference/patterns.md, Verify): the rank, the file
// offset, the expected and found byte there, 8 bytes from there of each, how many bytes of the
// piece are wrong, and the host the rank runs on, so that a stale piece read through another client
// (docs/guides/fslab.md) can be told from a torn one and placed without the results file.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/stamp.hpp"

using pio::VerifyMode;
using pio::test::all_ranks;
using pio::test::flip_file_byte;

namespace {

std::string hex_run(int rank, std::int64_t offset, int n, std::int64_t flipped) {
  std::string out;
  for (int k = 0; k < n; ++k) {
    char b[4];
    const unsigned v = pio::stamp_byte(rank, offset + k) ^ (offset + k == flipped ? 1u : 0u);
    std::snprintf(b, sizeof b, "%02x", v);
    out += (k ? " " : "") + std::string(b);
  }
  return out;
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return name;
}

} // namespace

TEST_CASE("Verify names rank, offset, expected and found bytes, the wrong share and the host",
          "[verify][message]") {
  const int rank = pio::test::rank(), size = pio::test::size();
  // the last rank's second unit: 64 bytes at (P + P - 1) * 64; byte 60 of it flipped, so the
  // 8 bytes from there run past the piece's end and are cut at it (4 bytes)
  const std::int64_t piece = (1 * size + (size - 1)) * 64, bad = piece + 60;
  pio::test::TempDir dir;
  pio::test::BlocksTest bt(dir.file("m.dat"), "read", VerifyMode::Untimed, false);
  bt.module.describe_test(bt.test);
  flip_file_byte(bt.file.get(), bad);
  std::string message;
  for (std::int64_t u = 0; u < 2 && message.empty(); ++u) {
    pio::UnitContext unit;
    unit.test = &bt.test;
    unit.unit = u;
    unit.units = 2;
    try {
      bt.module.before_work_unit(unit);
      bt.module.work_unit(unit);
      bt.module.after_work_unit(unit);
    } catch (const pio::Error &e) {
      message = e.what();
    }
  }
  bt.module.cleanup_test(bt.test);
  INFO(message);
  const bool mine = rank == size - 1;
  const std::string r = std::to_string(rank);
  const unsigned want = pio::stamp_byte(rank, bad);
  char first[64];
  std::snprintf(first, sizeof first, "expected 0x%x, found 0x%x", want, want ^ 1u);
  const std::string expect =
      "verification failed (data read): rank " + r + ", file offset " + std::to_string(bad) + ": " +
      first + "; bytes " + std::to_string(bad) + "-" + std::to_string(bad + 3) + " expected " +
      hex_run(rank, bad, 4, -1) + ", found " + hex_run(rank, bad, 4, bad) +
      "; 1 of the 64 bytes at " + std::to_string(piece) + "-" + std::to_string(piece + 63) +
      " wrong; rank " + r + " runs on host " + processor_name();
  const bool ok = mine ? message.rfind(expect, 0) == 0 : message.empty();
  CHECK(ok);
  REQUIRE(all_ranks(ok));
}
