#pragma once
/// A pattern module small enough to reason about byte by byte, for the Verify suites, and the
/// corruption of one file byte behind the engine's back.

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mpi_test.hpp"
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
