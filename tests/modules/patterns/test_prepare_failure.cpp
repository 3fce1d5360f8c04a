// A read mode's file is written untimed in describe_test, then synced with a barrier between
// (thesis §3.3.2). A write that fails on one rank alone (a GlusterFS client with a stale handle
// fails it with ENOENT: docs/guides/fslab.md) must fail that rank's describe_test while the other
// ranks return from theirs, so that the harness agrees on the failure; before, the other ranks
// waited in the barrier for the rank that had thrown, and the run hung.
#include <catch2/catch.hpp>

#include <string>

#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/io/interface.hpp"
#include "mpiio_io.hpp"

using pio::test::all_ranks;

namespace {

/// MPI-IO whose writes fail on the ranks told to.
class FailingWrites final : public pio::io::Interface {
public:
  FailingWrites(MPI_File file, bool fail) : io_(file), fail_(fail) {}
  std::int64_t start(const pio::io::Transfer &t) override {
    if (fail_ && t.direction == pio::io::Direction::Write)
      throw pio::Error("injected write failure");
    return io_.start(t);
  }
  std::int64_t finish(const pio::io::Transfer &t) override { return io_.finish(t); }
  void wait_all(MPI_Request *requests, int n) override { io_.wait_all(requests, n); }
  void sync() override { io_.sync(); }
  std::int64_t size() override { return io_.size(); }

private:
  pio::io::MpiIo io_;
  bool fail_;
};

} // namespace

// 4 ranks: ranks 1 and 2 are neither the failing (last) rank nor rank 0, which acts for the others.
TEST_CASE("a write of the read file failing on one rank fails that rank's describe_test alone",
          "[patterns][failure][4ranks]") {
  const int rank = pio::test::rank(), size = pio::test::size();
  pio::test::TempDir dir;
  for (const std::string mode : {"read", "re-read", "read-modify-write"}) {
    pio::test::BlocksTest bt(dir.file(mode + ".dat"), mode, pio::VerifyMode::Off, false);
    FailingWrites io(bt.file.get(), rank == size - 1);
    bt.test.io = &io;
    std::string error;
    try {
      bt.module.describe_test(bt.test);
    } catch (const pio::Error &e) {
      error = e.what();
    }
    INFO(mode << ": " << error);
    const bool ok = rank == size - 1 ? error == "injected write failure" : error.empty();
    CHECK(ok);
    REQUIRE(all_ranks(ok));
  }
}
