// The pattern engine over the io_uring backend with overlapping units (docs/reference/timing.md,
// "Queue depth"): at QueueDepth 8 each unit's transfer stays in flight into the next units (the
// unit says so), the last unit finishes them all, every rank's stamps land at their offsets, and
// each transfer reports one latency; Verify checks each unit's own bytes when its transfer
// finishes, so a corrupted byte is caught at its offset in the unit that finishes it (timed: in
// work_unit; on: in after_work_unit), QueueDepth units after the one that moved it. At QueueDepth 1
// nothing overlaps. The module's methods are called as the harness calls them in a phase-scope
// window.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends.hpp"
#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/stamp.hpp"

using pio::VerifyMode;
using pio::test::all_ranks;
using pio::test::rank;
using pio::test::size;

namespace {

constexpr std::int64_t kUnits = 16;

/// Counts the latencies reported to it.
struct Counter final : pio::io::LatencySink {
  int count = 0;
  void record(double) override { ++count; }
};

/// BlocksModule's test (64 bytes per rank and unit, kUnits units) in `mode` under `verify` on
/// the file `path`, which every rank opens through the io_uring backend at `depth`.
struct UringBlocks {
  UringBlocks(const std::string &path, const std::string &mode, VerifyMode verify, int depth)
      : backend(pio::test::backend("io_uring", {{"QueueDepth", {std::to_string(depth)}}})),
        mctx(context(mode, verify, backend.get())), tests(module.init_module(mctx)),
        file(backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {})),
        test(mctx, tests.at(0)) {
    test.comm = MPI_COMM_WORLD;
    test.rank = mctx.rank;
    test.size = mctx.size;
    test.io = &file->io();
  }
  std::unique_ptr<pio::io::Backend> backend;
  pio::ModuleContext mctx;
  pio::test::BlocksModule module;
  std::vector<pio::TestSpec> tests;
  std::unique_ptr<pio::io::OpenFile> file;
  pio::TestContext test;

private:
  static pio::ModuleContext context(const std::string &mode, VerifyMode verify,
                                    pio::io::Backend *b) {
    pio::ModuleContext m;
    m.rank = rank();
    m.size = size();
    m.verify = verify;
    m.interface = "io_uring";
    m.capabilities = pio::test::backend_info("io_uring").capabilities;
    m.backend = b;
    m.settings = pio::Settings(std::map<std::string, std::vector<std::string>>{
        {"Mode", {mode}}, {"WorkUnits", {std::to_string(kUnits)}}, {"HeaderOffset", {"0"}}});
    return m;
  }
};

/// Collective: flips one bit of `path` at `offset` from rank 0 through a descriptor of its own.
void flip(const std::string &path, std::int64_t offset) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() == 0) {
    const int fd = ::open(path.c_str(), O_RDWR);
    unsigned char c = 0;
    if (::pread(fd, &c, 1, offset) == 1) {
      c ^= 0x01;
      (void)::pwrite(fd, &c, 1, offset);
    }
    ::close(fd);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/// What a phase of kUnits units did on this rank.
struct Phase {
  std::string hook, message; ///< the first failure and the hook that threw it
  std::int64_t failed_unit = -1;
  std::vector<bool> in_flight; ///< per unit: it returned with transfers in flight
  int latencies = 0;
};

/// Runs the units as the harness's phase-scope window does; `between(u)` after work_unit(u).
Phase run_phase(UringBlocks &b, const std::function<void(std::int64_t)> &between = {}) {
  Phase p;
  Counter counter;
  auto call = [&](const char *hook, std::int64_t u, auto &&method) {
    if (!p.hook.empty())
      return;
    try {
      method();
    } catch (const pio::Error &e) {
      p.hook = hook;
      p.message = e.what();
      p.failed_unit = u;
    }
  };
  for (std::int64_t u = 0; u < kUnits; ++u) {
    pio::UnitContext unit;
    unit.test = &b.test;
    unit.unit = u;
    unit.units = kUnits;
    unit.may_overlap = true;
    call("before_work_unit", u, [&] { b.module.before_work_unit(unit); });
    b.test.io->report_latencies(&counter);
    call("work_unit", u, [&] { b.module.work_unit(unit); });
    b.test.io->report_latencies(nullptr);
    p.in_flight.push_back(unit.in_flight);
    if (between)
      between(u);
    call("after_work_unit", u, [&] { b.module.after_work_unit(unit); });
  }
  p.latencies = counter.count;
  return p;
}

/// The offset of byte 5 of the last rank's unit u (Blocks: (u * P + r) * 64).
std::int64_t byte_of(std::int64_t u) { return (u * size() + (size() - 1)) * 64 + 5; }

} // namespace

TEST_CASE("io_uring engine: units overlap at QueueDepth 8, the last one finishes them, the "
          "stamps land at their offsets",
          "[io_uring_engine]") {
  for (const int depth : {1, 8}) {
    DYNAMIC_SECTION("QueueDepth " << depth) {
      pio::test::TempDir dir;
      const std::string path = dir.file("w.dat");
      UringBlocks b(path, "write", VerifyMode::Untimed, depth);
      b.module.describe_test(b.test);
      const Phase p = run_phase(b);
      b.file->close(); // first, as the harness: it waits for what is in flight
      b.module.cleanup_test(b.test);
      MPI_Barrier(MPI_COMM_WORLD);
      // QueueDepth 8: units 0..14 leave their transfer in flight, the last leaves none.
      bool overlap = true;
      for (std::int64_t u = 0; u < kUnits; ++u)
        overlap = overlap && p.in_flight[static_cast<size_t>(u)] == (depth > 1 && u + 1 < kUnits);
      const auto data = pio::test::read_bytes(path);
      bool stamped = data.size() == static_cast<size_t>(kUnits * size() * 64);
      for (std::int64_t u = 0; u < kUnits && stamped; ++u)
        for (int r = 0; r < size() && stamped; ++r) {
          const std::int64_t at = (u * size() + r) * 64;
          stamped = pio::stamp_mismatch(data.data() + at, 64, r, at, 0, 0) < 0;
        }
      INFO("failure: " << p.hook << ": " << p.message << "; overlap " << overlap << " stamped "
                       << stamped << " latencies " << p.latencies);
      REQUIRE(all_ranks(p.hook.empty() && overlap && stamped && p.latencies == kUnits));
    }
  }
}

TEST_CASE("io_uring engine: Verify catches a corrupted byte at its offset when the unit's "
          "overlapping read finishes",
          "[io_uring_engine]") {
  const bool mine = rank() == size() - 1;
  const std::string at = "rank " + std::to_string(rank()) + ", file offset " +
                         std::to_string(byte_of(3)) + ": expected";
  for (const VerifyMode verify : {VerifyMode::Timed, VerifyMode::Untimed}) {
    const bool timed = verify == VerifyMode::Timed;
    DYNAMIC_SECTION((timed ? "Verify timed" : "Verify on")) {
      pio::test::TempDir dir;
      const std::string path = dir.file("r.dat");
      UringBlocks b(path, "read", verify, 8);
      b.module.describe_test(b.test); // prepares the file, untimed
      flip(path, byte_of(3));         // unit 3 of the last rank
      const Phase p = run_phase(b);
      b.file->close(); // first, as the harness: it waits for what is in flight
      b.module.cleanup_test(b.test);
      // Unit 3's read finishes when unit 11 needs its slot: timed, inside that work_unit; on, in
      // its after_work_unit. Only the last rank read the byte.
      const bool ok = mine ? p.hook == (timed ? "work_unit" : "after_work_unit") &&
                                 p.failed_unit == 3 + 8 &&
                                 p.message.find("verification failed (data read): " + at) == 0
                           : p.hook.empty();
      INFO(p.hook << " unit " << p.failed_unit << ": " << p.message);
      REQUIRE(all_ranks(ok));
    }
  }
}

TEST_CASE("io_uring engine: Verify on reads back each overlapping write at its offset",
          "[io_uring_engine]") {
  const bool mine = rank() == size() - 1;
  pio::test::TempDir dir;
  const std::string path = dir.file("w.dat");
  UringBlocks b(path, "write", VerifyMode::Untimed, 8);
  b.module.describe_test(b.test);
  // After the last unit's write every transfer is done: unit 12's (finished by unit 15, not yet
  // checked) gets a wrong byte before the last after_work_unit reads it back.
  const Phase p = run_phase(b, [&](std::int64_t u) {
    if (u == kUnits - 1)
      flip(path, byte_of(12));
  });
  b.file->close(); // first, as the harness: it waits for what is in flight
  b.module.cleanup_test(b.test);
  const bool ok = mine ? p.hook == "after_work_unit" && p.failed_unit == kUnits - 1 &&
                             p.message.find("verification failed (written data read back): rank " +
                                            std::to_string(rank()) + ", file offset " +
                                            std::to_string(byte_of(12)) + ":") == 0
                       : p.hook.empty();
  INFO(p.hook << " unit " << p.failed_unit << ": " << p.message);
  REQUIRE(all_ranks(ok));
}
