// The io_uring backend (backends/io_uring) at the seam: each extent of a transfer lands at its
// offset from consecutive bytes of memory, at QueueDepth 1 and 8 and with every ring option
// (registered buffers and files, SQPOLL); non-blocking transfers stay in flight together and are
// finished in any order, each with its own bytes; every operation started while a latency sink
// is set reports one latency, the others none; a short write (the file-size limit) and a failed
// one become errors naming the call, the path and the offset; O_DIRECT works on ext4
// (/var/tmp), refuses misaligned transfers, and is refused before any file exists on tmpfs with a
// DirectiveError naming ODirect. Every rank works on a file of its own; the verdict is reduced
// over the ranks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "backends.hpp"
#include "mpi_test.hpp"
#include "pio/error.hpp"
#include "seam_calls.hpp"

namespace io = pio::io;
using pio::test::Aligned;
using pio::test::all_ranks;
using pio::test::contains;
using pio::test::error_of;
using pio::test::my_file;
using pio::test::rank;
using pio::test::read_bytes;
using pio::test::TempDir;
using pio::test::transfer;

namespace {

using Options = std::map<std::string, std::vector<std::string>>;

/// Counts the latencies reported to it.
struct Counter final : io::LatencySink {
  int count = 0;
  bool positive = true;
  void record(double seconds) override {
    ++count;
    positive = positive && seconds > 0;
  }
};

/// The file-size limit of this process set to `bytes` (SIGXFSZ ignored) until destruction.
struct FileSizeLimit {
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old);
    previous = std::signal(SIGXFSZ, SIG_IGN);
    rlimit l = old;
    l.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &l);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
  }
  rlimit old{};
  void (*previous)(int) = nullptr;
};

} // namespace

TEST_CASE("io_uring seam: every extent at its offset, at QueueDepth 1 and 8, with every ring "
          "option",
          "[io_uring_seam]") {
  struct Case {
    const char *name;
    Options options;
  };
  const std::vector<Case> cases = {
      {"depth 1", {{"QueueDepth", {"1"}}}},
      {"depth 8", {{"QueueDepth", {"8"}}}},
      {"depth 8, registered buffers and files",
       {{"QueueDepth", {"8"}}, {"RegisteredBuffers", {"on"}}, {"RegisteredFiles", {"on"}}}},
      {"depth 4, SQPOLL", {{"QueueDepth", {"4"}}, {"SqPoll", {"on"}}}}};
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.name) {
      TempDir dir;
      const std::string path = my_file(dir, "extents");
      // 20 extents out of file order, with holes, of unequal lengths (more than the depth, and
      // one longer than the registered buffers' first size).
      std::vector<io::Extent> extents;
      std::int64_t total = 0;
      for (int k = 0; k < 20; ++k) {
        const std::int64_t length = 100 + 37 * k + (k == 7 ? 9000 : 0);
        extents.push_back({((k * 7) % 20) * 10000 + k, length});
        total += length;
      }
      std::vector<std::uint8_t> stream(static_cast<size_t>(total));
      for (size_t i = 0; i < stream.size(); ++i)
        stream[i] = static_cast<std::uint8_t>(i * 13 + rank() + 1);
      auto backend = pio::test::backend("io_uring", c.options);
      auto file = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
      io::Interface &seam = file->io();
      const bool depth = seam.queue_depth() == std::stoi(c.options.at("QueueDepth").at(0));
      Counter timed;
      seam.report_latencies(&timed);
      auto w = transfer(io::Direction::Write, stream.data(), static_cast<int>(total), extents);
      w.count_moved = true;
      const bool wrote = seam.run(w) == total;
      seam.report_latencies(nullptr);
      seam.sync();
      std::int64_t end = 0;
      for (const auto &e : extents)
        end = std::max(end, e.offset + e.length);
      std::vector<std::uint8_t> expect(static_cast<size_t>(end), 0);
      size_t pos = 0;
      for (const auto &e : extents)
        for (std::int64_t i = 0; i < e.length; ++i)
          expect[static_cast<size_t>(e.offset + i)] = stream[pos++];
      const bool exact = read_bytes(path) == expect;
      // Read back through the ring: the same stream; untimed, so no latency more.
      std::vector<std::uint8_t> back(stream.size(), 0);
      seam.run(transfer(io::Direction::Read, back.data(), static_cast<int>(total), extents));
      INFO(c.name << ": depth " << depth << " wrote " << wrote << " exact " << exact
                  << " latencies " << timed.count);
      REQUIRE(all_ranks(depth && wrote && exact && back == stream && timed.count == 20 &&
                        timed.positive && seam.size() == end));
      file->close();
    }
  }
}

TEST_CASE("io_uring seam: under SqPoll a submission queue the poller has not yet emptied is "
          "waited for, never a failed transfer",
          "[io_uring_seam]") {
  // Many small writes at depth 2 (before the fix 4 runs in 10 failed or hung): a freed slot's next
  // entry often finds the poller still holding the last batch (seen as a "submission queue is full"
  // failure, then a hang in the file's drain).
  TempDir dir;
  const std::string path = my_file(dir, "sqpoll");
  auto backend = pio::test::backend("io_uring", {{"QueueDepth", {"2"}}, {"SqPoll", {"on"}}});
  auto file = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
  io::Interface &seam = file->io();
  const int n = 20000;
  std::vector<io::Extent> extents;
  for (int k = 0; k < n; ++k)
    extents.push_back({static_cast<std::int64_t>(k) * 8, 8});
  std::vector<std::uint8_t> stream(static_cast<size_t>(n) * 8);
  for (size_t i = 0; i < stream.size(); ++i)
    stream[i] = static_cast<std::uint8_t>(i * 7 + rank());
  std::string error;
  try {
    seam.run(transfer(io::Direction::Write, stream.data(), n * 8, extents));
    seam.sync();
  } catch (const std::exception &e) {
    error = e.what();
  }
  INFO(error);
  REQUIRE(all_ranks(error.empty() && read_bytes(path) == stream));
  file->close();
}

TEST_CASE("io_uring seam: non-blocking transfers stay in flight together and finish in any "
          "order, each with its own bytes",
          "[io_uring_seam]") {
  TempDir dir;
  const std::string path = my_file(dir, "inflight");
  auto backend = pio::test::backend("io_uring", {{"QueueDepth", {"8"}}});
  auto file = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
  io::Interface &seam = file->io();
  constexpr int n = 12, len = 4096; // more transfers than the depth: some wait for a slot
  std::vector<std::vector<std::uint8_t>> data(n, std::vector<std::uint8_t>(len));
  std::vector<std::vector<io::Extent>> where(n);
  std::vector<MPI_Request> requests(n, MPI_REQUEST_NULL);
  std::vector<io::Transfer> started;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < len; ++i)
      data[k][static_cast<size_t>(i)] = static_cast<std::uint8_t>(k * 31 + i + rank());
    where[k] = {{static_cast<std::int64_t>(n - 1 - k) * len, len}};
    auto t = transfer(io::Direction::Write, data[k].data(), len, where[k]);
    t.completion = io::Completion::NonBlocking;
    t.request = &requests[static_cast<size_t>(k)];
    t.count_moved = true;
    started.push_back(t);
  }
  bool nulls = true;
  for (auto &t : started)
    nulls = nulls && seam.start(t) == 0 && *t.request == MPI_REQUEST_NULL;
  bool counts = true;
  for (int k = n; k-- > 0;) // the last started first
    counts = counts && seam.finish(started[static_cast<size_t>(k)]) == len;
  std::vector<std::uint8_t> expect;
  for (int k = n; k-- > 0;)
    expect.insert(expect.end(), data[k].begin(), data[k].end());
  const bool exact = read_bytes(path) == expect;
  // Reads in flight together, completed with wait_all, each into its own buffer.
  std::vector<std::vector<std::uint8_t>> back(n, std::vector<std::uint8_t>(len, 0));
  for (int k = 0; k < n; ++k) {
    auto t = transfer(io::Direction::Read, back[k].data(), len, where[k]);
    t.completion = io::Completion::NonBlocking;
    t.request = &requests[static_cast<size_t>(k)];
    seam.start(t);
  }
  seam.wait_all(requests.data(), n);
  INFO("nulls " << nulls << " counts " << counts << " exact " << exact);
  REQUIRE(all_ranks(nulls && counts && exact && back == data));
  file->close();
}

TEST_CASE("io_uring seam: a short write and a failed one are errors naming the call, the file "
          "and the offset",
          "[io_uring_seam]") {
  TempDir dir;
  const std::string path = my_file(dir, "limit");
  auto backend = pio::test::backend("io_uring", {{"QueueDepth", {"8"}}});
  auto file = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
  io::Interface &seam = file->io();
  std::vector<std::uint8_t> b(8 * 4096, 7);
  std::vector<io::Extent> extents;
  for (int k = 0; k < 8; ++k)
    extents.push_back({k * 4096, 4096});
  std::string error;
  {
    // The limit cuts the fifth block's write short at 1000 bytes; the rest of it fails.
    const FileSizeLimit limit(4 * 4096 + 1000);
    error = error_of([&] {
      seam.run(transfer(io::Direction::Write, b.data(), static_cast<int>(b.size()), extents));
    });
  }
  INFO(error);
  REQUIRE(all_ranks(contains(error, "io_uring write of " + path + " at offset ") &&
                    contains(error, "File too large") && contains(error, "fix: ")));
  // The ring goes on: a transfer after the failure works.
  std::vector<std::uint8_t> back(4096, 0);
  seam.run(transfer(io::Direction::Read, back.data(), 4096, {{0, 4096}}));
  REQUIRE(all_ranks(back == std::vector<std::uint8_t>(4096, 7)));
  file->close();
  // A read of a file open write-only fails at its offset.
  auto wo = backend->open(MPI_COMM_SELF, path, MPI_MODE_WRONLY, {});
  const std::string bad = error_of([&] {
    wo->io().run(transfer(io::Direction::Read, back.data(), 4096, {{8192, 4096}}));
  });
  INFO(bad);
  REQUIRE(all_ranks(contains(bad, "io_uring read of " + path +
                                      " at offset 8192 (4096 bytes): " + "Bad file descriptor")));
  wo->close();
}

TEST_CASE("io_uring seam: O_DIRECT on ext4 at depth 8, misaligned transfers refused, tmpfs "
          "refused before any file exists",
          "[io_uring_seam]") {
  TempDir dir("/var/tmp");
  const std::string path = my_file(dir, "direct");
  auto backend = pio::test::backend("io_uring", {{"QueueDepth", {"8"}}, {"ODirect", {"on"}}});
  backend->check_test_file(path); // ext4 takes O_DIRECT: nothing to refuse
  auto file = backend->open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_CREATE, {});
  io::Interface &seam = file->io();
  Aligned b(16 * 4096), back(16 * 4096);
  for (size_t i = 0; i < 16 * 4096; ++i)
    b.bytes()[i] = static_cast<std::uint8_t>(i / 4096 + 3 * rank());
  std::vector<io::Extent> extents;
  for (int k = 0; k < 16; ++k)
    extents.push_back({(15 - k) * 4096, 4096});
  seam.run(transfer(io::Direction::Write, b.p, 16 * 4096, extents));
  seam.run(transfer(io::Direction::Read, back.p, 16 * 4096, extents));
  const bool same = std::equal(b.bytes(), b.bytes() + 16 * 4096, back.bytes());
  const std::string misaligned = error_of([&] {
    seam.run(transfer(io::Direction::Write, b.p, 1000, {{0, 1000}}));
  });
  INFO(misaligned);
  REQUIRE(all_ranks(same && contains(misaligned, "O_DIRECT write of " + path +
                                                     " at offset 0, 1000 bytes: offset and length "
                                                     "must be multiples")));
  file->close();

  TempDir shm("/dev/shm");
  std::string refused;
  try {
    backend->check_test_file(shm.file("t"));
  } catch (const pio::DirectiveError &e) {
    refused = e.directive() + ": " + e.what() + " | fix: " + e.hint();
  }
  INFO(refused);
  REQUIRE(all_ranks(contains(refused, "ODirect: ODirect on: the test file " + shm.file("t") +
                                          " would be on tmpfs") &&
                    contains(refused, "set ODirect off") && !pio::test::exists(shm.file("t"))));
}

TEST_CASE("io_uring's options as docs/reference/interfaces.md lists them are its option table's",
          "[io_uring_seam]") {
  if (rank() != 0)
    return;
  std::ifstream in(PIO_SOURCE_DIR "/docs/reference/interfaces.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto section = doc.find("\n## io_uring\n");
  REQUIRE(section != std::string::npos);
  const std::string text = doc.substr(section);
  for (const auto &o : pio::test::backend_info("io_uring").options) {
    // "| `QueueDepth` | 1 to 4096 | 1 |": the name, then its values, then its default.
    const std::string values = o.spec.type == pio::DirectiveType::Flag
                                   ? "on / off"
                                   : "1 to " + std::to_string(static_cast<int>(*o.spec.max));
    const std::string row =
        "| `" + o.spec.name + "` | " + values + " | " + o.spec.default_value + " | ";
    INFO("docs/reference/interfaces.md, section io_uring, lacks the row starting " << row);
    CHECK(text.find("\n" + row) != std::string::npos);
  }
}
