// Interface::size through every interface: the bytes a file holds as a reader finds it (what a
// FilesFrom reader with units of its own draws its offsets from): nothing in a new file, the end
// of the last byte written, the same after reopening it read-only.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "backends.hpp"
#include "mpi_test.hpp"

namespace io = pio::io;
using pio::test::all_ranks;
using pio::test::rank;
using pio::test::TempDir;

namespace {

/// Writes `bytes` bytes at `offset` through f's interface (HDF5 shapes its dataset to end first).
void write_at(io::OpenFile &f, std::int64_t offset, std::int64_t bytes, std::int64_t end) {
  f.io().shape(end);
  std::vector<unsigned char> data(static_cast<size_t>(bytes), 0x5a);
  const io::Extent e{offset, bytes};
  io::Transfer t;
  t.buffer = data.data();
  t.count = static_cast<int>(bytes);
  t.offset = offset;
  t.extents = &e;
  t.extent_count = 1;
  f.io().run(t);
}

} // namespace

TEST_CASE("Interface::size is the bytes the file holds, in a new file and after reopening it",
          "[io][size]") {
  for (const std::string kind : {"mpiio", "posix", "hdf5"}) {
    DYNAMIC_SECTION(kind) {
      TempDir dir;
      // A file per rank, of a length of its own: 3000 bytes skipped, then 5000 + 17 * rank.
      const std::string path = dir.file("sized." + std::to_string(rank()));
      const std::int64_t end = 3000 + 5000 + 17 * rank();
      const auto backend = pio::test::backend(kind);
      std::int64_t fresh = -1, written = -1, reopened = -1;
      {
        auto f = backend->open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, {});
        fresh = f->io().size();
        write_at(*f, 3000, end - 3000, end);
        written = f->io().size();
        f->close();
      }
      {
        auto f = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, {});
        reopened = f->io().size();
        f->close();
      }
      CHECK(fresh == 0);
      CHECK(written == end);
      CHECK(reopened == end);
      REQUIRE(all_ranks(fresh == 0 && written == end && reopened == end));
    }
  }
}
