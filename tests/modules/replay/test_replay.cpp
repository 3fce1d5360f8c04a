// The replay module through the harness at 1, 2 and 4 processes (docs/guides/replay.md): a DXT
// trace of 4 ranks replayed under every TraceRanks mapping the run allows, through mpiio (with and
// without a file view, independent and collective), posix and hdf5, with Verify on. The extents
// each run rank touches per unit (the engine's LayoutTrace) are the trace's operations of the ranks
// mapped onto it in start-time order, and the file holds each byte at its traced offset with that
// rank's stamp; a trace larger than TraceMemory gives the same file. Bad traces end the run before
// any I/O at their file:line; the figure counts what was not replayed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "layout_checks.hpp"
#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

constexpr int kTraceRanks = 4;

/// One traced operation.
struct Op {
  int rank;
  bool write;
  std::int64_t offset, length;
  double start;
};

/// The writes and reads of trace rank t (k < per_rank each): write k at a scrambled slot of 1 KiB
/// of its own, a length that varies; the ranks' times interleave. Every rank reads a shared 100
/// bytes header first (several ranks read the same bytes), then its own slots.
std::vector<Op> trace_ops(std::int64_t per_rank) {
  std::vector<Op> ops;
  for (int t = 0; t < kTraceRanks; ++t) {
    for (std::int64_t k = 0; k < per_rank; ++k) {
      const std::int64_t slot = (k * 37 + 11) % per_rank; // 37 is coprime to every per_rank used
      ops.push_back({t, true, 4096 + (slot * kTraceRanks + t) * 1024, 1024 - (t * 13 + k) % 200,
                     0.01 + static_cast<double>(k) * 0.004 + t * 0.0013});
    }
    ops.push_back({t, false, 0, 100, 0.005 + t * 0.0001});
    for (std::int64_t k = 0; k < per_rank / 2; ++k)
      ops.push_back({t, false, 4096 + (k * kTraceRanks + t) * 1024, 512,
                     1.0 + static_cast<double>(k) * 0.003 + t * 0.0007});
  }
  return ops;
}

/// The ops as darshan-dxt-parser prints them: per rank a preamble, its writes, then its reads.
std::string dxt_text(const std::vector<Op> &ops, const std::string &file) {
  std::string s = "# darshan log version: 3.41\n# nprocs: " + std::to_string(kTraceRanks) +
                  "\n\n# ***************************************************\n"
                  "# DXT_POSIX module data\n"
                  "# ***************************************************\n";
  char line[200];
  for (int t = 0; t < kTraceRanks; ++t) {
    std::int64_t w = 0, r = 0;
    for (const auto &o : ops)
      (o.rank == t ? (o.write ? w : r) : w) += o.rank == t ? 1 : 0;
    s += "\n# DXT, file_id: 42, file_name: " + file + "\n# DXT, rank: " + std::to_string(t) +
         ", hostname: node" + std::to_string(t) + "\n# DXT, write_count: " + std::to_string(w) +
         ", read_count: " + std::to_string(r) +
         "\n# DXT, mnt_pt: /scratch, fs_type: lustre\n"
         "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)"
         "   Pthread-ID\n";
    for (const bool write : {true, false}) {
      int segment = 0;
      for (const auto &o : ops)
        if (o.rank == t && o.write == write) {
          std::snprintf(line, sizeof line, "%8s%8d%7s%9d%16lld%16lld%12.4f%12.4f   %4d\n",
                        "X_POSIX", t, write ? "write" : "read", segment++,
                        static_cast<long long>(o.offset), static_cast<long long>(o.length), o.start,
                        o.start + 0.0002, 1234);
          s += line;
        }
    }
  }
  return s;
}

/// The run rank that replays trace rank t (docs/guides/replay.md, TraceRanks).
int mapped(const std::string &mapping, int t, int p) {
  if (mapping == "modulo")
    return t % p;
  if (mapping == "scaled")
    return t * p / kTraceRanks;
  return t < p ? t : -1;
}

/// Run rank r's extents in replay order: its trace ranks' operations of one kind by start.
Extents expected(const std::vector<Op> &ops, const std::string &mapping, int r, int p,
                 bool writes) {
  std::vector<const Op *> mine;
  for (const auto &o : ops)
    if (o.write == writes && mapped(mapping, o.rank, p) == r)
      mine.push_back(&o);
  std::stable_sort(mine.begin(), mine.end(),
                   [](const Op *a, const Op *b) { return a->start < b->start; });
  Extents e;
  for (const auto *o : mine)
    e.emplace_back(o->offset, o->length);
  return e;
}

std::string block(const std::string &label, const std::string &file, const std::string &body) {
  return "<ap_module>\n  ModuleName replay\n  Label " + label + "\n  TestFile \"" + file + "\"\n" +
         body + "</ap_module>\n";
}

const char *const kExactMpiIo = "  Hint romio_ds_write disable\n  Hint romio_cb_write disable\n";

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

/// Checks every traced test of `layout` against the trace: run rank r's extents, unit by unit,
/// are its trace ranks' writes by start time; with `files`, each test's file (in `dir`, named by
/// its label) holds each byte at its traced offset with that rank's stamp.
std::string check_layouts(const TempDir &dir, const std::string &layout, const std::vector<Op> &ops,
                          const std::vector<std::pair<std::string, std::string>> &runs,
                          bool files) {
  std::string problem;
  const auto traced = read_trace(layout, &problem);
  if (!problem.empty())
    return problem;
  if (traced.size() != runs.size())
    return "traced " + std::to_string(traced.size()) + " tests";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto &[label, mapping] = runs[i];
    const Traced &t = traced[i];
    for (int r = 0; r < size(); ++r) {
      const Extents want = expected(ops, mapping, r, size(), true);
      Extents got;
      for (std::int64_t u = 0; u < t.test["units"].get<std::int64_t>(); ++u)
        for (const auto &e : t.extents.at({r, u}))
          got.push_back(e);
      if (got != want)
        return label + ": rank " + std::to_string(r) + " replayed " + text(got) +
               ", the trace has " + text(want);
    }
    if (files) {
      problem = compare_file(dir.file(label), traced_image(t), "write");
      if (!problem.empty())
        return label + ": " + problem;
    }
  }
  return problem;
}

// 4 ranks: the exact mapping of the trace's 4 ranks onto 4 processes exists only here.
TEST_CASE("a DXT trace of 4 ranks replays byte-exact on any process count", "[replay][4ranks]") {
  TempDir dir;
  const auto ops = trace_ops(12);
  write_text(dir.file("app.dxt"), dxt_text(ops, "/scratch/app/out.dat"));
  const std::string layout = dir.file("layout.jsonl");
  struct Run {
    std::string label, mapping, body;
  };
  std::vector<Run> runs;
  if (size() == kTraceRanks) // elsewhere a rank the run does not have: the error case below
    runs.push_back({"exact-view", "exact", kExactMpiIo});
  runs.push_back({"modulo-view", "modulo", kExactMpiIo});
  runs.push_back({"modulo-noview-coll", "modulo",
                  std::string(kExactMpiIo) + "  FileView off\n  Collective on\n"});
  runs.push_back({"scaled-posix", "scaled", "  Interface posix\n"});
  std::string config = "Verify on\nKeepFiles on\n";
  std::vector<std::pair<std::string, std::string>> labels;
  for (const auto &r : runs) {
    config += block(r.label, dir.file(r.label),
                    "  Trace " + dir.file("app.dxt") + "\n  TraceRanks " + r.mapping +
                        "\n  LayoutTrace \"" + layout + "\"\n" + r.body);
    labels.emplace_back(r.label, r.mapping);
  }
  run_and_check(dir, "replay", config, [&](const nlohmann::json &) {
    return check_layouts(dir, layout, ops, labels, true);
  });
}

TEST_CASE("a trace beyond TraceMemory is sorted on disk into the same units", "[replay]") {
  // 1280 writes: 72 KiB as the store's records, more than TraceMemory's 64 KiB.
  TempDir dir;
  const auto ops = trace_ops(320);
  write_text(dir.file("app.dxt"), dxt_text(ops, "/scratch/app/out.dat"));
  const std::string layout = dir.file("layout.jsonl");
  std::string config = "Verify off\n";
  for (const std::string memory : {"64K", "64M"})
    config +=
        block("memory-" + memory, dir.file("m" + memory),
              "  Trace " + dir.file("app.dxt") + "\n  TraceRanks scaled\n  TraceMemory " + memory +
                  "\n  Interface posix\n  TimingScope phase\n  LayoutTrace \"" + layout + "\"\n");
  const auto ran = run_config(dir, "memory", config);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    problem = check_layouts(dir, layout, ops, {{"memory-64K", "scaled"}, {"memory-64M", "scaled"}},
                            false);
    const auto store = [&](int b) {
      for (const auto &row : ran.run.modules.at(b).figure->tables.at(0).rows)
        if (std::get<std::string>(row.at(0)) == "operations")
          return std::get<std::string>(row.at(1));
      return std::string("(no row)");
    };
    if (problem.empty() &&
        (store(0).find("sorted on disk") != 0 || store(1).find("in memory") != 0))
      problem = "the figures say " + store(0) + " and " + store(1);
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

TEST_CASE("reads several ranks share are prepared once and verified; read back what was written",
          "[replay]") {
  TempDir dir;
  const auto ops = trace_ops(8);
  write_text(dir.file("app.dxt"), dxt_text(ops, "/scratch/app/out.dat"));
  const std::string trace = "  Trace " + dir.file("app.dxt") + "\n  TraceRanks modulo\n";
  const std::string config =
      "Verify on\n" + block("reads", dir.file("reads"), trace + "  Mode read\n") +
      block("reads-hdf5", dir.file("reads.h5"), trace + "  Mode re-read\n  Interface hdf5\n") +
      block("written", dir.file("written"), trace + "  Interface hdf5\n") +
      block("read-back", dir.file("written"),
            trace + "  Mode read\n  TraceOps writes\n  FilesFrom written\n  Interface hdf5\n");
  run_and_check(
      dir, "reads", config,
      [&](const nlohmann::json &results) {
        // Every rank's units: its trace ranks' reads (shared header first), its writes after.
        const auto &m = results["modules"];
        const auto units = [&](int b) {
          return m[b]["tests"][0]["params"]["work_units"].get<std::string>();
        };
        std::int64_t most_reads = 0, most_writes = 0;
        for (int r = 0; r < size(); ++r) {
          most_reads = std::max<std::int64_t>(
              most_reads,
              static_cast<std::int64_t>(expected(ops, "modulo", r, size(), false).size()));
          most_writes = std::max<std::int64_t>(
              most_writes,
              static_cast<std::int64_t>(expected(ops, "modulo", r, size(), true).size()));
        }
        if (units(0) != std::to_string(most_reads) || units(3) != std::to_string(most_writes))
          return "units " + units(0) + " and " + units(3);
        return std::string();
      },
      false);
}

TEST_CASE("the figure: the summary beside the replay, and what was not replayed", "[replay]") {
  TempDir dir;
  const auto ops = trace_ops(6);
  write_text(dir.file("app.dxt"), dxt_text(ops, "/scratch/app/out.dat"));
  const auto ran = run_config(
      dir, "fig",
      block("w", dir.file("w"), "  Trace " + dir.file("app.dxt") + "\n  TraceRanks modulo\n"));
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.size() == 1);
    const auto &fig = ran.run.modules[0].figure;
    REQUIRE(fig.has_value());
    CHECK(fig->name == "replay");
    REQUIRE(fig->values.size() == 3);
    CHECK(fig->values[0].name == "replay");
    CHECK(fig->values[0].value > 0);
    // Recorded: the writes' bytes over the union of their intervals as the trace prints them
    // (0.1 ms digits), some of which overlap.
    std::int64_t bytes = 0;
    std::vector<std::pair<long, long>> ticks; // [start, end) in 0.1 ms
    for (const auto &o : ops)
      if (o.write) {
        bytes += o.length;
        const long a = std::lround(o.start * 1e4), b = std::lround((o.start + 0.0002) * 1e4);
        ticks.push_back({a, b});
      }
    std::sort(ticks.begin(), ticks.end());
    long busy = 0, reach = 0;
    for (const auto &[a, b] : ticks) {
      busy += std::max(0L, b - std::max(a, reach));
      reach = std::max(reach, b);
    }
    CHECK(fig->values[1].name == "recorded");
    CHECK(fig->values[1].value == Approx(bytes / (busy * 1e-4) / 1048576.0).epsilon(0.001));
    std::map<std::string, std::vector<pio::Cell>> rows;
    for (const auto &t : fig->tables)
      for (const auto &row : t.rows)
        rows[t.name + "/" + std::get<std::string>(row.at(0))] = row;
    CHECK(std::get<std::int64_t>(rows.at("trace summary/operations").at(1)) == 4 * 4);
    CHECK(std::get<std::int64_t>(rows.at("trace summary/operations").at(2)) == 4 * 6);
    CHECK(std::get<std::int64_t>(rows.at("trace summary/bytes").at(2)) == bytes);
    CHECK(std::get<std::int64_t>(rows.at("not replayed/reads (TraceOps writes)").at(1)) == 16);
    CHECK(std::get<std::string>(rows.at("trace/ranks").at(1)) ==
          "4 traced on " + std::to_string(size()) + " (TraceRanks modulo)");
    return true;
  }));
}

TEST_CASE("bad traces end the run before any I/O, named at the trace's file:line", "[replay]") {
  TempDir dir;
  const std::string head = "# DXT, file_id: 1, file_name: /x/out\n# DXT, rank: 0, hostname: h\n";
  struct Case {
    std::string trace, directives, directive, message;
  };
  const std::vector<Case> cases = {
      {head + " X_POSIX 0 write 0 0 4096 0.1 0.2\n X_POSIX 0 write 1 4096\n", "", "Trace",
       "t.dxt:4: a truncated record: 5 fields where a DXT record has 8"},
      {head + " X_POSIX 0 write 0 0 4096 0.1 0.2\n X_POSIX 0 write 1 4096 4096 0.3", "", "Trace",
       "t.dxt:4: the trace ends in the middle of a record"},
      {head + " X_HDF5 0 write 0 0 4096 0.1 0.2\n", "", "Trace",
       "t.dxt:3: unknown module 'X_HDF5'"},
      {head + " X_POSIX 0 write 0 -8192 4096 0.1 0.2\n", "", "Trace",
       "t.dxt:3: a negative offset -8192"},
      {"# DXT, file_id: 1, file_name: /x/out\n X_POSIX 0 write 0 0 4096 0.1 0.2\n"
       " X_POSIX 4 write 0 4096 4096 0.1 0.2\n",
       "", "TraceRanks",
       "t.dxt:3: trace rank 4 replays on a run rank the run does not have (" +
           std::to_string(size()) + (size() == 1 ? " process" : " processes") +
           ", TraceRanks exact)"},
      {"5 1.000000 pwrite64(3</x/out>, \"ab\", 2, 0) = 2 <0.000001>\n5 1.000010 pwrite64(3", "",
       "Trace", "t.dxt:2: the log ends in the middle of a line"},
      {head + " X_POSIX 0 write 0 0 4096 0.1 0.2\n", "  Mode read-modify-write\n", "Mode",
       "read-modify-write would read and then write every traced operation"},
  };
  for (const auto &c : cases) {
    INFO(c.trace);
    write_text(dir.file("t.dxt"), c.trace);
    const std::string config =
        "Verify on\n" +
        block("bad", dir.file("bad"), "  Trace " + dir.file("t.dxt") + "\n" + c.directives);
    const auto ran = run_config(dir, "bad", config);
    INFO(ran.err);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(!exists(dir.file("bad"))));
    // The block's line of the directive at fault (Trace: line 6, Mode 7; a defaulted one: the
    // ModuleName line, 3), then the trace's own file:line.
    const std::string where = c.directive == "Trace"  ? "bad.conf:6: Trace"
                              : c.directive == "Mode" ? "bad.conf:7: Mode"
                                                      : "bad.conf:3: " + c.directive;
    const std::string message = c.directive == "Mode" ? c.message : dir.path() + "/" + c.message;
    REQUIRE(all_ranks(rank() != 0 || (has(ran.err, where) && has(ran.err, message))));
    std::remove(dir.file("bad.conf").c_str());
  }
}
