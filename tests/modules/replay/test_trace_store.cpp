// The replay's trace loading without MPI or the harness (modules/replay): the operation store
// sorts each run rank's operations by start time within its memory budget, spilling to disk
// beyond it (a trace larger than memory is streamed: the test bounds the peak memory), the busy
// time is the union of the intervals, TraceRanks maps ranks, and load_trace names the directive
// and the trace line at fault.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "op_store.hpp"
#include "pio/error.hpp"
#include "rank_map.hpp"
#include "trace_load.hpp"

using namespace pio::replay;

namespace {

/// This process's peak resident memory (VmHWM) in bytes.
std::int64_t peak_rss() {
  std::ifstream in("/proc/self/status");
  std::string key;
  std::int64_t kb = -1;
  while (in >> key) {
    if (key == "VmHWM:") {
      in >> kb;
      break;
    }
    in.ignore(1 << 20, '\n');
  }
  return kb * 1024;
}

/// Resets the peak resident memory to the current (Linux: clear_refs 5).
bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  return static_cast<bool>(out.flush());
}

/// A DXT trace of `ranks` ranks with `per_rank` writes each on one file: rank r's write k is
/// 4096 bytes at (k * ranks + r) * 4096, starting at a time that interleaves the ranks and runs
/// backwards in every 7th block of the trace (so the store must sort).
void write_trace(const std::string &path, int ranks, std::int64_t per_rank) {
  std::ofstream out(path);
  out << "# nprocs: " << ranks << "\n# DXT_POSIX module data\n";
  for (int r = 0; r < ranks; ++r) {
    out << "# DXT, file_id: 1, file_name: /data/big\n# DXT, rank: " << r
        << ", hostname: h\n# DXT, write_count: " << per_rank << ", read_count: 0\n";
    for (std::int64_t k = 0; k < per_rank; ++k) {
      const std::int64_t when = (k / 7) * 7 + (6 - k % 7); // each run of 7 backwards
      const double start = static_cast<double>(when * ranks + r) * 1e-4;
      out << " X_POSIX " << r << " write " << k << " " << (k * ranks + r) * 4096 << " 4096 "
          << start << " " << start + 5e-5 << "\n";
    }
  }
}

std::string message_of(const std::function<void()> &f, std::string *directive = nullptr) {
  try {
    f();
  } catch (const pio::DirectiveError &e) {
    if (directive)
      *directive = e.directive();
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("TraceRanks maps the trace's ranks onto the run's", "[replay]") {
  CHECK(run_rank(RankMapping::Exact, 3, 8, 4) == 3);
  CHECK(run_rank(RankMapping::Exact, 5, 8, 4) == -1);
  CHECK(run_rank(RankMapping::Modulo, 5, 8, 4) == 1);
  for (int t = 0; t < 8; ++t)
    CHECK(run_rank(RankMapping::Scaled, t, 8, 2) == t / 4); // blocks of T/P trace ranks
  CHECK(run_rank(RankMapping::Scaled, 1, 2, 4) == 2);
  CHECK(parse_rank_mapping("scaled") == RankMapping::Scaled);
}

TEST_CASE("busy time is the union of the intervals, in bounded memory", "[replay]") {
  BusyTime b;
  b.add(0, 0.001);
  b.add(0.0005, 0.002);
  b.add(0.005, 0.006);
  b.add(0.0019, 0.0019); // no time
  CHECK(b.seconds() == Approx(0.003).margin(2e-6));
  // A bitmap of 1024 ticks over 10 s: the tick grows to 2^14 us, the union stays within a tick.
  BusyTime c(1024);
  c.add(0, 1);
  c.add(9, 10);
  CHECK(c.tick() >= 10.0 / 1024);
  CHECK(c.seconds() == Approx(2).margin(2 * c.tick()));
}

TEST_CASE("the summary: sizes, sequential share, recorded bandwidth", "[replay]") {
  TraceSummary s;
  const auto op = [](std::int64_t rank, std::int64_t off, std::int64_t len, double t0, double t1) {
    TraceOp o;
    o.rank = rank;
    o.kind = OpKind::Write;
    o.offset = off;
    o.length = len;
    o.start = t0;
    o.end = t1;
    return o;
  };
  s.add(op(0, 0, 1024, 0, 0.5));
  s.add(op(0, 1024, 1024, 0.5, 1));  // sequential
  s.add(op(0, 8192, 4096, 2, 2.5));  // random
  s.add(op(1, 4096, 1024, 0.25, 1)); // another rank's first
  const auto &w = s.of(OpKind::Write);
  CHECK(w.ops == 4);
  CHECK(w.bytes == 7168);
  CHECK(w.sequential_share() == Approx(0.5));
  CHECK(w.sizes.at(10) == 3);
  CHECK(w.sizes.at(12) == 1);
  CHECK(w.busy.seconds() == Approx(1.5).margin(1e-5));
  CHECK(w.busy_bandwidth_MiBps() == Approx(7168 / 1.5 / 1048576.0).epsilon(1e-4));
  CHECK(w.span_bandwidth_MiBps() == Approx(7168 / 2.5 / 1048576.0));
  CHECK(std::isnan(s.of(OpKind::Read).sequential_share()));
}

TEST_CASE("the store sorts each run rank by start time, on disk beyond its budget",
          "[replay][store]") {
  std::mt19937_64 gen(7);
  std::vector<std::pair<std::int64_t, StoredOp>> ops;
  for (std::int64_t i = 0; i < 20000; ++i)
    ops.push_back({static_cast<std::int64_t>(gen() % 5),
                   StoredOp{i * 10, 10, static_cast<double>(gen() % 1000) * 0.01, 0, i + 1}});
  const auto map = [](std::int64_t t) { return t == 4 ? -1 : t % 2; }; // trace rank 4: dropped
  OpStore small(64 * 1024, spill_directory()), large(64 << 20, spill_directory());
  for (const auto &o : ops) {
    small.add(o.first, o.second);
    large.add(o.first, o.second);
  }
  small.finish(map, 2);
  large.finish(map, 2);
  CHECK(small.spilled());
  CHECK_FALSE(large.spilled());
  for (int r = 0; r < 2; ++r) {
    REQUIRE(small.count(r) == large.count(r));
    std::vector<std::pair<double, std::int64_t>> expect;
    for (const auto &o : ops)
      if (map(o.first) == r)
        expect.push_back({o.second.start, o.second.line});
    std::stable_sort(expect.begin(), expect.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    REQUIRE(static_cast<std::int64_t>(expect.size()) == small.count(r));
    bool same = true;
    for (std::int64_t i = 0; i < small.count(r); ++i) {
      const auto a = small.at(r, i), b = large.at(r, i);
      same = same && a.line == expect[static_cast<std::size_t>(i)].second && b.line == a.line &&
             a.offset == b.offset && a.start == b.start;
    }
    CHECK(same);
  }
}

TEST_CASE("a trace larger than the memory budget is streamed: the peak memory stays bounded",
          "[replay][store]") {
  // 8 ranks x 80000 writes: 640000 operations, 26 MB as the replay's operations (36 MB as the
  // store's sort records), 34 MB of text. Within a 1 MiB budget the peak resident memory may
  // grow by a few MiB (the budget, the read cache, the summary's 2 MiB bitmaps), never by what
  // holding the operations would take.
  pio::test::TempDir dir("/tmp");
  const std::string path = dir.file("big.dxt");
  write_trace(path, 8, 80000);
  TraceRequest q;
  q.path = path;
  q.run_ranks = 2;
  q.mapping = RankMapping::Scaled;
  q.memory_budget = 1 << 20;
  q.spill_dir = dir.path();
  REQUIRE(reset_peak_rss());
  const std::int64_t before = peak_rss();
  const LoadedTrace t = load_trace(q);
  const std::int64_t grown = peak_rss() - before;
  INFO("peak resident memory grew by " << grown << " bytes");
  REQUIRE(t.store);
  CHECK(t.store->spilled());
  CHECK(t.replayed_ops == 640000);
  CHECK(t.ops_per_rank == std::vector<std::int64_t>{320000, 320000});
  // The store's bound (op_store.hpp): the budget for the sort, as much again for the merge's
  // buffers, a quarter for the read cache; the summary's three bitmaps at most 2 MiB each (one
  // more while one coarsens); 1 MiB of slack for the allocator and the stream buffers.
  const std::int64_t bound = q.memory_budget * 9 / 4 + (7 << 20) + (1 << 20);
  const std::int64_t held = 640000 * static_cast<std::int64_t>(sizeof(StoredOp));
  CHECK(grown < bound);
  CHECK(bound < held / 2);
  // Run rank 1 replays trace ranks 4..7, merged by start time: each start no earlier than the
  // one before, and every run of 7 written backwards in the trace comes out forwards.
  bool ordered = true;
  double last = -1;
  for (std::int64_t i = 0; i < t.store->count(1); ++i) {
    const auto op = t.store->at(1, i);
    ordered = ordered && op.start >= last;
    last = op.start;
  }
  CHECK(ordered);
  const auto first = t.store->at(1, 0);
  CHECK(first.offset == (6 * 8 + 4) * 4096); // trace rank 4's write 6 starts first
}

TEST_CASE("load_trace names the directive and the trace line at fault", "[replay]") {
  pio::test::TempDir dir("/tmp");
  const auto trace = [&](const std::string &name, const std::string &text) {
    std::ofstream(dir.file(name)) << text;
    return dir.file(name);
  };
  const std::string two_files = trace("two.dxt", "# DXT, file_id: 1, file_name: /a/x.h5\n"
                                                 " X_POSIX 0 write 0 0 10 0.1 0.2\n"
                                                 "# DXT, file_id: 2, file_name: /a/y.dat\n"
                                                 " X_POSIX 0 write 0 0 20 0.1 0.2\n"
                                                 " X_POSIX 3 read 0 0 20 0.3 0.4\n"
                                                 "# DXT, file_id: 3, file_name: /a/z.dat\n"
                                                 " X_MPIIO 0 write 0 -1 20 0.1 0.2\n");
  struct Case {
    std::string pattern;
    Layer layer;
    OpSelection ops;
    std::string directive, message;
  };
  const Case cases[] = {
      {"", Layer::Posix, OpSelection::Writes, "TraceFile",
       "2 traced files have reads or writes: /a/x.h5 (0 reads, 1 write, 10 bytes); /a/y.dat (1 "
       "read, 1 write, 40 bytes); a block replays one file"},
      {"*.nc", Layer::Posix, OpSelection::Writes, "TraceFile",
       "no traced file with reads or writes matches '*.nc'; the trace's: /a/x.h5"},
      {"z.dat", Layer::Posix, OpSelection::Writes, "TraceLayer",
       "the traced file /a/z.dat has no X_POSIX records"},
      {"z.dat", Layer::MpiIo, OpSelection::Writes, "TraceLayer",
       dir.file("two.dxt") + ":7: an X_MPIIO record without its offset"},
      {"x.h5", Layer::Posix, OpSelection::Reads, "TraceOps",
       "the traced file /a/x.h5 has no reads to replay (it has 0 reads and 1 write of more than 0 "
       "bytes)"},
      {"/a/y.*", Layer::Posix, OpSelection::All, "TraceRanks",
       dir.file("two.dxt") + ":5: trace rank 3 replays on a run rank the run does not have (2 "
                             "processes, TraceRanks exact)"},
  };
  for (const auto &c : cases) {
    INFO(c.pattern << " " << to_string(c.layer) << " " << to_string(c.ops));
    TraceRequest q;
    q.path = two_files;
    q.file_pattern = c.pattern;
    q.layer = c.layer;
    q.ops = c.ops;
    q.run_ranks = 2;
    q.keep_ops = false;
    std::string directive;
    const std::string m = message_of([&] { load_trace(q); }, &directive);
    INFO(m);
    CHECK(directive == c.directive);
    CHECK(m.find(c.message) == 0);
  }
  TraceRequest q;
  q.path = trace("nprocs.dxt", "# nprocs: 2\n# DXT, file_id: 1, file_name: /a/x\n"
                               " X_POSIX 2 write 0 0 10 0.1 0.2\n");
  std::string directive;
  CHECK(message_of([&] { load_trace(q); }, &directive) ==
        dir.file("nprocs.dxt") + ":3: a record of rank 2 in a trace of 2 processes ('# nprocs:' at "
                                 "line 1)");
  CHECK(directive == "Trace");
  q.path = dir.file("missing.dxt");
  CHECK(message_of([&] { load_trace(q); }, &directive) == "cannot open the trace " + q.path);
}
