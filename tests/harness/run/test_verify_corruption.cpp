// Verify catches a corrupted byte (issue 2): the engine prepares a file for a read, one byte of
// it is changed behind the engine's back, and the read's verification names that offset.
#include <catch2/catch.hpp>

#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/io/mpiio.hpp"
#include "pio/patterns/pattern_module.hpp"

using pio::test::BlocksModule;

TEST_CASE("Verify names the first corrupted byte of a read", "[verify]") {
  pio::test::TempDir dir;
  const std::string path = dir.file("corrupt.dat");
  const int rank = pio::test::rank(), size = pio::test::size();
  pio::ModuleContext mctx;
  mctx.rank = rank;
  mctx.size = size;
  mctx.verify = pio::VerifyMode::Untimed;
  mctx.settings = pio::Settings(std::map<std::string, std::vector<std::string>>{
      {"Mode", {"read"}}, {"WorkUnits", {"2"}}, {"HeaderOffset", {"0"}}});
  BlocksModule module;
  const auto tests = module.init_module(mctx);
  REQUIRE(pio::test::all_ranks(tests.size() == 1));
  pio::TestSpec spec = tests[0];
  REQUIRE(pio::test::all_ranks(spec.phases.at(0).work_units == 2));
  pio::File file(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, pio::Info());
  pio::TestContext test(mctx, spec);
  test.comm = MPI_COMM_WORLD;
  test.rank = rank;
  test.size = size;
  test.file = file.get();
  pio::io::MpiIo io(file.get());
  test.io = &io;
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
