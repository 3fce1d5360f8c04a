#pragma once
/// One test (thesis §3.3.2: a combination of buffer size, header offset, number of work units,
/// hints, access mode and file layout) as a module declares it in init_module, with the
/// communication semantics and rank groups the harness needs to time and report it.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pio {

/// Which file the harness opens for a test.
enum class FileUse {
  None,           ///< no file (communication kernels): file handle is MPI_FILE_NULL
  Shared,         ///< one file, opened collectively by all participating ranks
  FilePerProcess, ///< one file per rank ("<TestFile>.<rank>"), opened on MPI_COMM_SELF
};

/// The one spelling of a FileUse wherever it is written as text (results JSON and CSV `file_use`,
/// the layout trace's `file`, module params): "none", "shared", "file-per-process".
inline const char *to_string(FileUse f) {
  switch (f) {
  case FileUse::None:
    return "none";
  case FileUse::Shared:
    return "shared";
  case FileUse::FilePerProcess:
    return "file-per-process";
  }
  return "?";
}

/// How a time-driven phase decides when to stop (docs/reference/timing.md).
enum class EndCheck {
  /// Units in geometric batches (1, 2, 4, ...); after each batch the root compares the elapsed
  /// time with the budget and broadcasts the next batch size (b_eff_io paper §5.4).
  Batched,
  /// After every unit the root predicts the elapsed time after one more unit from the mean so
  /// far and goes on while it stays within the budget: elapsed * (n + 1) / n <= budget
  /// (b_eff_io 2.1, b_eff_io.c: a barrier, the root's clock and a broadcast after every call).
  PerUnit,
};

/// What a phase's timed work does to the test file, so the harness can measure the page cache
/// before it reads and, with CacheMode drop, empty it (docs/reference/timing.md, "The page cache").
enum class PhaseAccess {
  Unstated, ///< not said (no file, metadata items): the harness measures nothing
  Write,    ///< writes only
  Read,     ///< reads data already in the file (read, read-modify-write)
  /// Reads again what the untimed before_work_unit read just before each unit (re-read, thesis
  /// §3.4.2): from the page cache by design unless O_DIRECT bypasses it.
  ReRead,
};

/// What a test's work units count, and so which rate is its figure of merit.
enum class Merit {
  Bandwidth,  ///< work_unit returns bytes moved; the rate is MiB/s
  Operations, ///< work_unit returns operations done (metadata: files created, stat'ed); ops/s
};

/// The unit of a Merit's rate as every reporter prints it: "MiB/s" or "ops/s".
inline const char *merit_unit(Merit m) { return m == Merit::Operations ? "ops/s" : "MiB/s"; }

/// How a test of a FilesFrom block is bounded by what the earlier block of its chain made
/// (docs/reference/configuration.md, "Blocks that share files").
enum class ChainCap {
  /// The same layout as the earlier block's same test: each phase runs at most the units that
  /// test's same phase completed on the rank (a stonewalled write leaves fewer).
  Units,
  /// Units of its own over the files as found: the module bounds its accesses by the file's size
  /// (Interface::size), as IOR's random reads do; the harness caps nothing.
  FileSize,
};

/// A run of work units timed as one series. Most tests have one phase; a test with several
/// phases (b_eff_io's patterns within one open/close) reports each phase and their sum.
struct Phase {
  std::string label;           ///< e.g. "pattern 3"; empty for a single-phase test
  std::int64_t work_units = 1; ///< count-driven: number of work units (if time_budget_s == 0)
  /// Time-driven: run units until this many seconds of the phase have passed (wall time). Only
  /// the root's value decides; it is read after each batch, so a module may still adjust it
  /// (TestContext::set_time_budget) in before_work_unit of the phase's first unit. Whether the
  /// phase is time-driven (> 0) is fixed when it starts.
  double time_budget_s = 0;
  std::int64_t max_work_units = 0;            ///< time-driven: upper bound on units (0 = none)
  EndCheck end_check = EndCheck::Batched;     ///< time-driven: how the root decides to stop
  PhaseAccess access = PhaseAccess::Unstated; ///< what the units do to the file (CacheMode)
};

/// What a communication test reports (IMB 3.2 User Guide §3.3.1, §4.2.1: throughput for single
/// and parallel transfers, time only for collectives).
enum class Report {
  Bandwidth, ///< bandwidth from bytes and time (I/O tests; IMB throughput)
  Latency,   ///< time per operation only (IMB collectives)
  Both,      ///< time per operation and throughput (IMB PingPong, Sendrecv, Exchange)
};

/// The time columns of an IMB-style table (IMB 3.2 User Guide §6).
enum class TimeColumns {
  Range, ///< t_min[usec] t_max[usec] t_avg[usec] over a group's ranks
  /// A single transfer: t[usec] = t_max alone (§6: no t_min / t_avg), unless the table shows
  /// the spread over several groups (GroupRows::Auto with groups > 1, or GroupRows::Worst).
  Single,
};

/// Whether an IMB-style table has a message length column.
enum class BytesColumn {
  Shown, ///< #bytes first (benchmarks run per message length)
  None,  ///< time only: #repetitions and the times (IMB's Barrier, IMB-IO's Open_Close)
};

/// How an IMB-style table shows a test that several groups run at once (IMB's -multi outflag).
enum class GroupRows {
  Auto,  ///< no -multi: one row, the worst group; single transfers show the spread if groups > 1
  Worst, ///< -multi 0: one row, the worst group, with the spread over all groups' ranks
  Each,  ///< -multi 1: a Group column and every group's row (IMB_output.c, group_mode 1)
};

/// The unit of an IMB-style table's Mbytes/sec column.
enum class MbytesUnit {
  Unstated, ///< 2^20 bytes/s, no "# Mbytes/sec =" line
  MiB,      ///< 2^20 bytes/s (IMB 3.2), stated under the title
  MB,       ///< 10^6 bytes/s (IMB 2019 and later), stated under the title
};

/// The "MODE:" line of an IMB-EXT or IMB-IO table (IMB 3.2 User Guide §6).
enum class TableMode {
  None,         ///< no MODE line
  Aggregate,    ///< "MODE: AGGREGATE"
  NonAggregate, ///< "MODE: NON-AGGREGATE"
};

/// What an IMB-style table (Output::Imb, IMB 3.2 User Guide §6) shows for a communication test.
/// The module says it; the harness prints it and knows no benchmark by name. A new table (with
/// its header) starts when the title, mode, process count or groups change.
struct ImbTable {
  std::string title;                      ///< "# Benchmarking <title>" ("" = the module's name)
  TimeColumns time = TimeColumns::Range;  ///< one t column or t_min / t_max / t_avg
  BytesColumn bytes = BytesColumn::Shown; ///< whether rows start with #bytes
  GroupRows rows = GroupRows::Auto;       ///< how several groups are shown
  MbytesUnit unit = MbytesUnit::Unstated; ///< the unit of Mbytes/sec
  TableMode mode = TableMode::None;       ///< the MODE line
  /// The methodology that ran, printed under the unit line as "# Methodology: <text>" ("" = no
  /// line), e.g. "imb2019 (root 0, -sync 1, Reduce_scatter L per rank, 10^6 B/s)".
  std::string methodology;
  /// Each group's world ranks as listed under a Multi- title ("# Group  0:     0    1"), in the
  /// module's order (IMB -map); empty = no list.
  std::vector<std::vector<int>> group_ranks;
};

/// How the harness turns a work unit's per-rank times into per-operation figures, so no module
/// divides by its own sample count (IMB's SCALE_TIME_HALF / SCALE_BW_DOUBLE are the idea):
///   t per operation (each rank) = own unit time / ops_per_unit * time_scale
///   t_min / t_avg / t_max       = over the ranks of a group (IMB §6 columns)
///   throughput [MiB/s]          = message_bytes * bytes_scale / t_max
struct CommSemantics {
  std::int64_t ops_per_unit = 1;  ///< operations per work unit (IMB n_sample)
  double time_scale = 1.0;        ///< PingPong: 0.5 (half a round trip)
  std::int64_t message_bytes = 0; ///< bytes of one message (IMB X)
  double bytes_scale = 1.0; ///< messages per operation in the throughput (Sendrecv 2, Exchange 4)
  Report report = Report::Both; ///< which figures the test reports
  ImbTable table;               ///< what an IMB-style table shows (Output::Imb)
};

/// Which ranks take part in a test, and in which group: color[r] is the group of world rank r,
/// -1 (or r past the end) leaves r idle in this test. Every group runs the test at once, each
/// on its own communicator (TestContext::comm); rank 0 must take part. The harness splits the
/// communicators (IMB -npmin / -multi, COMMTEST pairings, b_eff_io partitions).
struct RankGroups {
  std::vector<int> color; ///< per world rank; empty = all ranks in one group

  /// All ranks, one group.
  static RankGroups all() { return {}; }
  /// The first n ranks, one group (thesis Table A.1 num_procs_participating).
  static RankGroups first(int n) {
    RankGroups g;
    g.color.assign(static_cast<size_t>(n), 0);
    return g;
  }
  /// `count` groups of `size` consecutive ranks (IMB -multi).
  static RankGroups blocks(int size, int count) {
    RankGroups g;
    for (int k = 0; k < count; ++k)
      for (int i = 0; i < size; ++i)
        g.color.push_back(k);
    return g;
  }
  /// Explicit sets of world ranks, one group each, e.g. {{0, 2}, {1, 3}} (COMMTEST).
  static RankGroups sets(const std::vector<std::vector<int>> &groups) {
    RankGroups g;
    for (size_t k = 0; k < groups.size(); ++k)
      for (int r : groups[k]) {
        if (static_cast<size_t>(r) >= g.color.size())
          g.color.resize(static_cast<size_t>(r) + 1, -1);
        g.color[static_cast<size_t>(r)] = static_cast<int>(k);
      }
    return g;
  }
};

/// One test of a module. Fields the module leaves at their defaults mean "harness default".
struct TestSpec {
  /// Short human label, e.g. "64K".
  std::string label;
  /// Bytes per rank per work unit as reported (the "transfer size").
  std::int64_t buffer_size = 0;
  /// Bytes skipped at the start of the file (ReportHeaderOffset).
  std::int64_t header_offset = 0;
  /// The test's phases; at least one.
  std::vector<Phase> phases = {Phase{}};
  /// Which file the harness opens.
  FileUse file = FileUse::Shared;
  /// Appended to TestFile (e.g. ".type0"); tests differing in it use different files.
  std::string file_suffix;
  /// Keep the file for later tests of the module (write it, then rewrite, then read it); the
  /// harness deletes it after cleanup_module if it created it.
  bool keep_file = false;
  /// Open mode (the harness adds nothing else).
  int amode = MPI_MODE_RDWR | MPI_MODE_CREATE;
  /// MPI-IO hints this test asks for (the block's Hint lines override them).
  std::map<std::string, std::string> hints;
  /// Ranks taking part and their groups (default: all ranks, one group).
  RankGroups groups;
  /// Communication semantics; unset for I/O tests (bandwidth = bytes / aggregate time).
  std::optional<CommSemantics> comm;
  /// What work_unit's return value counts: bytes (default) or operations (rate in ops/s).
  Merit merit = Merit::Bandwidth;
  /// Under FilesFrom: capped at the earlier block's units (default) or bounded by the file.
  ChainCap chain_cap = ChainCap::Units;
  /// Every parameter that defines the test, for the results (CSV columns, compare keys).
  std::map<std::string, std::string> params;
};

} // namespace pio
