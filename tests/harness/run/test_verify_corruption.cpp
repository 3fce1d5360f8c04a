// Verify catches a corrupted byte (issue 2): the engine prepares a file for a read, one byte of
// it is changed behind the engine's back, and the read's verification names that offset.
#include <catch2/catch.hpp>

#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/patterns/pattern_module.hpp"

TEST_CASE("Verify names the first corrupted byte of a read", "[verify]") {
  pio::test::TempDir dir;
  const std::string path = dir.file("corrupt.dat");
  const int rank = pio::test::rank(), size = pio::test::size();
  pio::test::BlocksTest bt(path, "read", pio::VerifyMode::Untimed, true);
  REQUIRE(pio::test::all_ranks(bt.tests.size() == 1));
  REQUIRE(pio::test::all_ranks(bt.tests[0].phases.at(0).work_units == 2));
  auto &module = bt.module;
  auto &file = bt.file;
  auto &test = bt.test;
  module.describe_test(test); // writes the stamped data every rank will read

  // Corrupt the last rank's second unit, 5 bytes in, from rank 0.
  const std::int64_t bad = (1 * size + (size - 1)) * 64 + 5;
  pio::test::flip_file_byte(file.get(), bad);

  std::string error;
  for (std::int64_t u = 0; u < 2; ++u) {
    pio::UnitContext unit;
    unit.test = &test;
    unit.unit = u;
    unit.units = 2;
    module.before_work_unit(unit);
    module.work_unit(unit);
    try {
      module.after_work_unit(unit);
    } catch (const pio::Error &e) {
      error = e.what();
    }
  }
  module.cleanup_test(test);
  const bool mine = rank == size - 1;
  // Only the reader of the corrupted byte fails, naming exactly that offset.
  REQUIRE(pio::test::all_ranks(mine ? error.find("file offset " + std::to_string(bad) + ":") !=
                                          std::string::npos
                                    : error.empty()));
}
