// docs/reference/reliability.md: 64-bit sizes end to end; one transfer above 2 GiB works and lands
// byte-exact.
#include <catch2/catch.hpp>

#include <fstream>

#include "mpi_test.hpp"
#include "pio/stamp.hpp"

TEST_CASE("a single 2100 MiB write is verified and lands where it should", "[large]") {
  pio::test::TempDir dir;
  const std::int64_t bytes = 2100LL << 20;
  const auto ran = pio::test::run_config(
      dir, "large",
      "TestFile " + dir.file("large.dat") +
          "\nKeepFiles on\nVerify on\n<ap_module>\nModuleName simple_strided\nBufferSizes 2100M\n"
          "WorkUnits 1\n</ap_module>\n",
      true);
  REQUIRE(ran.exit_code == 0);
  CHECK(ran.results["modules"][0]["tests"][0]["reps"][0]["bytes"] == bytes);
  std::ifstream f(dir.file("large.dat"), std::ios::binary | std::ios::ate);
  REQUIRE(static_cast<std::int64_t>(f.tellg()) == bytes);
  for (std::int64_t o :
       std::vector<std::int64_t>{0, (1LL << 31) - 1, 1LL << 31, (1LL << 31) + 1, bytes - 1}) {
    f.seekg(o);
    char c = 0;
    f.read(&c, 1);
    CHECK(static_cast<std::uint8_t>(c) == pio::stamp_byte(0, o, 0));
  }
}
