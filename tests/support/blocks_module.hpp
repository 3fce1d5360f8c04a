#pragma once
/// A pattern module small enough to reason about byte by byte, for the Verify suites, set up as
/// the harness sets up a test, and the corruption of one file byte behind the engine's back.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends.hpp"
#include "mpi_test.hpp"
#include "mpiio_io.hpp"
#include "pio/mpi_handles.hpp"
#include "pio/patterns/pattern_module.hpp"

namespace pio::test {

/// Rank r's unit u: 64 bytes at (u * P + r) * 64.
class Blocks : public pio::patterns::Geometry {
public:
  explicit Blocks(int size) : size_(size) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    return {{(unit * size_ + rank) * 64, 64}};
  }

private:
  int size_;
};

/// One test, "64", over Blocks.
class BlocksModule : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    return {{pattern_spec("64", 64), std::make_shared<Blocks>(ctx.size)}};
  }
};

/// BlocksModule's one test in `mode` under `verify`, two work units, no header, on the file
/// `path` opened by every rank through MPI-IO, as the harness sets it up before describe_test.
struct BlocksTest {
  BlocksTest(const std::string &path, const std::string &mode, pio::VerifyMode verify,
             bool file_view)
      : mctx(context(mode, verify, file_view)), tests(module.init_module(mctx)),
        file(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, pio::Info()), io(file.get()),
        test(mctx, tests.at(0)) {
    test.comm = MPI_COMM_WORLD;
    test.rank = mctx.rank;
    test.size = mctx.size;
    test.io = &io;
  }
  BlocksTest(const BlocksTest &) = delete;
  BlocksTest &operator=(const BlocksTest &) = delete;

  pio::ModuleContext mctx;
  BlocksModule module;
  std::vector<pio::TestSpec> tests; ///< what init_module returned
  pio::File file;
  pio::io::MpiIo io;
  pio::TestContext test;

private:
  static pio::ModuleContext context(const std::string &mode, pio::VerifyMode verify,
                                    bool file_view) {
    pio::ModuleContext m;
    m.rank = rank();
    m.size = size();
    m.verify = verify;
    m.use_file_view = file_view;
    m.interface = "mpiio";
    m.capabilities = backend_info("mpiio").capabilities;
    m.settings = pio::Settings(std::map<std::string, std::vector<std::string>>{
        {"Mode", {mode}}, {"WorkUnits", {"2"}}, {"HeaderOffset", {"0"}}});
    return m;
  }
};

/// Collective: flips one bit of the file at `offset` from rank 0, between MPI-IO's
/// sync-barrier-syncs, so that every rank's writes are in before and the change is seen after.
inline void flip_file_byte(MPI_File file, std::int64_t offset) {
  MPI_File_sync(file);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(file);
  if (rank() == 0) {
    unsigned char c = 0;
    MPI_File_read_at(file, offset, &c, 1, MPI_BYTE, MPI_STATUS_IGNORE);
    c ^= 0x01;
    MPI_File_write_at(file, offset, &c, 1, MPI_BYTE, MPI_STATUS_IGNORE);
  }
  MPI_File_sync(file);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(file);
}

} // namespace pio::test
