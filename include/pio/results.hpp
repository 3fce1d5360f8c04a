#pragma once
/// The typed results of a run (run -> module block -> test -> repetition -> phase). The harness
/// fills them, computes every statistic on them, and hands them to reporters (console, JSON,
/// CSV, IMB tables); a module's figure of merit is computed from its block's results and
/// returned as a Figure that every reporter renders. No JSON here: modules see plain structs.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "pio/block_settings.hpp"
#include "pio/cache_mode.hpp"
#include "pio/flag.hpp"
#include "pio/module_family.hpp"
#include "pio/spec.hpp"
#include "pio/timing_scope.hpp"
#include "pio/verify_mode.hpp"

namespace pio {

/// Summary of a series (over ranks or over repetitions): min, max, mean, median, sample stddev.
struct Stats {
  double min = 0, max = 0, mean = 0, median = 0, stddev = 0;
  int count = 0;
};

/// Per-operation times of one group of ranks (CommSemantics), as IMB reports them (§6).
struct OpTimes {
  int group = 0;           ///< group index (RankGroups)
  int ranks = 0;           ///< ranks in the group
  double t_min_us = 0;     ///< minimum over the group's ranks of the time per operation
  double t_avg_us = 0;     ///< mean over the group's ranks
  double t_max_us = 0;     ///< maximum over the group's ranks
  double mbytes_per_s = 0; ///< message_bytes * bytes_scale / t_max, in MiB/s (IMB Mbytes/sec)
};

/// The percentiles of a phase's per-operation latencies, as fio reports clat; each names a field
/// of the results (latency_percentile_name: p50, p90, p99, p99.9).
inline constexpr double kLatencyPercentiles[] = {50, 90, 99, 99.9};

/// "p50", "p90", "p99", "p99.9": the results' name of percentile `percent`.
inline std::string latency_percentile_name(double percent) {
  std::string n = std::to_string(percent);
  n.erase(n.find_last_not_of('0') + 1);
  if (!n.empty() && n.back() == '.')
    n.pop_back();
  return "p" + n;
}

/// A phase's per-operation latencies over every rank of the test, each from the operation's
/// submission to its completion (fio's clat), for a backend that times its operations
/// (io_uring): the reads and writes it made for the work units, not the untimed ones around
/// them (docs/reference/timing.md, "Queue depth").
struct OpLatencies {
  std::int64_t count = 0; ///< operations timed
  double min_us = 0;      ///< fastest, exact
  double mean_us = 0;     ///< exact
  double max_us = 0;      ///< slowest, exact
  /// percentiles_us[i] is percentile kLatencyPercentiles[i]: the latency at or below which that
  /// share of the operations completed, to the histogram's resolution (1.2 %).
  std::vector<double> percentiles_us;
};

/// How a node's page cache was probed (docs/reference/timing.md, "The page cache").
enum class CacheProbe {
  Cachestat, ///< cachestat(2) (Linux 6.5 and later)
  Mincore,   ///< mincore(2) over a read-only mapping of the file
};

/// "cachestat" or "mincore".
inline const char *to_string(CacheProbe p) {
  return p == CacheProbe::Mincore ? "mincore" : "cachestat";
}

/// The page cache before a read phase or after a write phase, over every node taking part
/// (measured untimed, per node through one leader; before a read after CacheMode drop's flush
/// and eviction).
struct CacheCheck {
  std::int64_t range_bytes = 0;    ///< bytes of the test's files the nodes use, summed over nodes
  std::int64_t resident_bytes = 0; ///< of those, in the nodes' page caches (read: as it started)
  /// After a write phase: bytes of the range still dirty or under writeback as it ended, so not
  /// yet on storage (-1: not measured: before a read, or mincore, which cannot tell).
  std::int64_t dirty_bytes = -1;
  double max_node_fraction = 0;             ///< the largest resident share of any one node
  CacheProbe probe = CacheProbe::Cachestat; ///< how it was measured
  bool dropped = false;   ///< CacheMode drop: flushed and evicted before (untimed)
  double drop_time_s = 0; ///< what flushing and evicting took, the slowest node (untimed)
  /// A file on tmpfs or ramfs: its pages are its storage, so nothing can be evicted.
  bool memory_file_system = false;
  PhaseAccess access = PhaseAccess::Read; ///< Read, ReRead or Write (the phase's declaration)
};

/// How a time-driven phase was ended: its Phase::end_check, or IO500's wear-out rule
/// (StoneWallWearOut, docs/reference/timing.md, "Stonewalling").
enum class PhaseEnd {
  Batched, ///< EndCheck::Batched
  PerUnit, ///< EndCheck::PerUnit
  WearOut, ///< StoneWallWearOut: the root stopped at the deadline, every rank wore out to the most
};

/// The one spelling of a PhaseEnd: the results' JSON `end_check`.
inline const char *to_string(PhaseEnd e) {
  switch (e) {
  case PhaseEnd::Batched:
    return "batched";
  case PhaseEnd::PerUnit:
    return "per_unit";
  case PhaseEnd::WearOut:
    return "wear_out";
  }
  return "?";
}

/// The PhaseEnd of a phase ended by its own end check.
inline PhaseEnd phase_end(EndCheck check) {
  return check == EndCheck::PerUnit ? PhaseEnd::PerUnit : PhaseEnd::Batched;
}

/// What one phase of one repetition measured (all participating ranks).
struct PhaseResult {
  std::string label;            ///< the phase's label
  std::int64_t units = 0;       ///< work units run
  std::int64_t bytes = 0;       ///< bytes moved by all ranks
  double aggregate_time_s = 0;  ///< sum over units of end-of-B1 to end-of-B2 (widest rank's)
  double elapsed_time_s = 0;    ///< wall time of the phase, untimed steps included
  double time_budget_s = 0;     ///< the phase's budget when time-driven (0 = count-driven)
  std::int64_t units_limit = 0; ///< time-driven: the most units it could run (0 = no limit)
  /// Time-driven: how it was ended (none: count-driven).
  std::optional<PhaseEnd> end_check;
  bool stonewalled = false; ///< made time-driven by the block's StoneWall
  /// The scope it was timed in: the block's TimingScope, phase under StoneWallWearOut.
  TimingScope timing_scope = TimingScope::Unit;
  /// Transfers stayed in flight from one unit into the next (a backend's QueueDepth): the hooks
  /// between those units were timed too (docs/reference/timing.md, "Queue depth").
  bool units_overlapped = false;
  /// end_check PhaseEnd::WearOut (StoneWallWearOut, IO500's rule): units per rank at the stop
  /// (min, max: every rank completed max), the window up to the stop and the wear-out after it.
  std::int64_t units_at_stop_min = 0;
  std::int64_t units_at_stop_max = 0;
  double stonewall_time_s = 0;
  double wear_out_time_s = 0;
  double bandwidth_MiBps = 0;      ///< bytes / aggregate time
  std::int64_t ops = 0;            ///< Merit::Operations: operations by all ranks (bytes stays 0)
  double ops_per_s = 0;            ///< Merit::Operations: ops / aggregate time
  Stats rank_time_s;               ///< over ranks of each rank's own unit time (IMB style)
  std::vector<OpTimes> groups;     ///< per group, for tests with CommSemantics
  std::optional<CacheCheck> cache; ///< with a file: the page cache before a read, after a write
  std::optional<OpLatencies> latency; ///< per-operation latencies, when the backend times them
};

/// One repetition of a test: open, phases, close.
struct Repetition {
  int rep = 0;                     ///< 0 .. ModuleReps-1
  double open_time_s = 0;          ///< slowest rank's MPI_File_open (0 without a file)
  double close_time_s = 0;         ///< slowest rank's MPI_File_close
  std::vector<PhaseResult> phases; ///< in order
  std::int64_t units = 0;          ///< over phases
  std::int64_t bytes = 0;          ///< over phases
  double aggregate_time_s = 0;     ///< over phases
  double bandwidth_MiBps = 0;      ///< bytes / aggregate time
  std::int64_t ops = 0;            ///< Merit::Operations: over phases
  double ops_per_s = 0;            ///< Merit::Operations: ops / aggregate time
  Stats rank_time_s;               ///< over ranks of each rank's total own time
  std::optional<OpTimes> op;       ///< CommSemantics: the worst group's times (largest t_max)
  std::vector<FlagRecord> flags;   ///< what makes this repetition's figure doubtful (empty: clean)
};

/// An error all ranks agreed on.
struct ErrorRecord {
  int rank = 0;        ///< the lowest failing rank
  std::string message; ///< what, where and how to fix it
  std::string host;    ///< the node that rank ran on (MPI_Get_processor_name)
};

/// How steady a test's figure is over its repetitions (docs/reference/results.md, "Steadiness").
/// The figure is the test's rate (MiB/s, ops/s), or t_avg per operation for a communication test.
struct Steadiness {
  int count = 0;              ///< repetitions
  double median = 0;          ///< of the figure
  double cv = 0;              ///< coefficient of variation: sample stddev / mean (0 below 2)
  double min_over_median = 0; ///< min / median
  double max_over_median = 0; ///< max / median
  /// The distribution-free interval of the median: order statistics x_(j) .. x_(n+1-j) with
  /// the largest j whose binomial coverage (Boost.Math) is at least 95 %; unset below 6
  /// repetitions, which cannot give one.
  std::optional<double> ci_low, ci_high;
  double ci_level = 0;      ///< the interval's exact coverage (0.95 .. 1)
  double ci_half_width = 0; ///< the larger side of the interval / median (0.05 = +-5 %)
};

/// Statistics over a test's repetitions (docs/reference/timing.md: min / max / mean / stddev over
/// reps).
struct TestSummary {
  Stats bandwidth_MiBps, aggregate_time_s, open_time_s, close_time_s;
  Stats ops_per_s;                           ///< Merit::Operations: over reps
  Stats rank_min_s, rank_mean_s, rank_max_s; ///< of each rep's min / mean / max over ranks
  std::optional<OpTimes> op;                 ///< CommSemantics: the best repetition's op times
  Steadiness steadiness;                     ///< spread and the median's interval
};

/// Why `ModuleReps auto` stopped repeating a test.
enum class RepsStop {
  Target,  ///< the median's interval came within the target
  TimeCap, ///< the time cap was reached first
  MaxReps, ///< the largest count was reached first
};

/// "target", "time_cap", "max_reps".
inline const char *to_string(RepsStop s) {
  return s == RepsStop::Target ? "target" : s == RepsStop::TimeCap ? "time_cap" : "max_reps";
}

/// What the nodes saw while a test ran (docs/reference/results.md, "Conditions").
struct TestConditions {
  int ranks_per_node = 0; ///< the most ranks of the test on one node
  int usable_cores = 0;   ///< that node's usable cores (0: unknown)
  /// The largest share of the test's recorded phases (their unit loops, not the untimed
  /// preparation, page-cache checks or warm-ups) one of its ranks spent runnable but waiting for
  /// a CPU (its run-queue delay, /proc/thread-self/schedstat; -1: not measured).
  double cpu_wait_fraction = -1;
  /// The largest share of the test's wall time in which some task on a node waited for a CPU
  /// (/proc/pressure/cpu "some"; -1: not measured). Any task counts, also a storage worker the
  /// ranks kept waiting, so it only stands in for cpu_wait_fraction where that is not measured.
  double node_cpu_pressure = -1;
  std::int64_t swapped_pages = 0; ///< pages swapped in and out on the node that swapped most
};

/// One test of a block: what it was and what every repetition measured.
struct TestResult {
  int index = 0;                  ///< position in the module's test list
  std::string label;              ///< TestSpec::label
  std::int64_t buffer_size = 0;   ///< TestSpec::buffer_size
  std::int64_t header_offset = 0; ///< TestSpec::header_offset
  FileUse file_use = FileUse::Shared;
  int procs = 0;                             ///< ranks taking part
  int groups = 1;                            ///< groups running at once
  std::string file;                          ///< the test file (rank 0's path; "" without a file)
  std::map<std::string, std::string> params; ///< TestSpec::params
  std::map<std::string, std::string> hints_requested; ///< the test's and the block's hints
  std::map<std::string, std::string> hints_in_effect; ///< MPI_File_get_info after the first open
  std::optional<CommSemantics> comm;                  ///< TestSpec::comm
  Merit merit = Merit::Bandwidth;                     ///< TestSpec::merit: MiB/s or ops/s
  TimingScope timing_scope = TimingScope::Unit;       ///< the block's TimingScope
  double stone_wall_s = 0;          ///< the block's StoneWall budget per phase (0 = off)
  std::vector<Repetition> reps;     ///< every repetition that completed
  TestSummary summary;              ///< over reps
  std::optional<ErrorRecord> error; ///< set if the test failed
  std::string started;       ///< when the test started on rank 0 (ISO 8601 UTC, ms: utc_timestamp)
  std::string finished;      ///< when it finished (all its repetitions, or its failure)
  TestConditions conditions; ///< what the nodes saw while it ran
  std::optional<RepsStop> reps_stop; ///< ModuleReps auto: why it stopped
  std::vector<FlagRecord> flags;     ///< what makes its figure doubtful (empty: clean)
  /// Where the timing itself cannot be vouched for and no flag names it (a rank's own time above
  /// the aggregate, barriers costing most of the aggregate), one line each.
  std::vector<std::string> notes;
};

/// A repetition's figure as Steadiness takes it: t_avg per operation of a communication test,
/// the rate otherwise.
inline double figure_of(const Repetition &r, const TestResult &t) {
  if (t.comm && r.op)
    return r.op->t_avg_us;
  return t.merit == Merit::Operations ? r.ops_per_s : r.bandwidth_MiBps;
}

/// A repetition's rate in its test's unit (merit_unit): MiB/s or ops/s.
inline double rate_of(const Repetition &r, Merit m) {
  return m == Merit::Operations ? r.ops_per_s : r.bandwidth_MiBps;
}

/// A test's rate statistics over repetitions in its unit (merit_unit).
inline const Stats &rate_stats(const TestResult &t) {
  return t.merit == Merit::Operations ? t.summary.ops_per_s : t.summary.bandwidth_MiBps;
}

/// A cell of a figure table.
using Cell = std::variant<std::int64_t, double, std::string>;

/// A named value of a figure, e.g. {"b_eff_io", 1112.5, "MiB/s"}.
struct FigureValue {
  std::string name;
  /// NaN: not measured (the console and CSV say "not measured", the JSON holds null), never 0.
  double value = 0;
  std::string unit;
};

/// A table of a figure (rows of cells under named columns).
struct FigureTable {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  /// Detail for the results file: the console leaves it out unless ShowAllTests is on (b_eff's
  /// protocol, a row per pattern, length and method).
  bool detail = false;
};

/// A module's figure of merit (b_eff_io, b_eff, COMMTEST statistics): named values, tables and
/// notes that every reporter renders.
struct Figure {
  std::string name;                ///< e.g. "b_eff_io"
  std::vector<FigureValue> values; ///< the headline numbers, first is the figure itself
  std::vector<FigureTable> tables; ///< detail
  std::vector<std::string> notes;  ///< caveats, e.g. "T < 15 min: not a valid b_eff_io result"
};

/// How a module's tests are shown on the console.
enum class Output {
  Table, ///< pio-bench's table (bandwidth, aggregate time, per-rank times)
  Imb, ///< IMB's tables (IMB 3.2 User Guide §6): #bytes #repetitions t_min t_max t_avg Mbytes/sec
  /// The figure only (b_eff: thousands of tests that its figure's tables summarise); every test
  /// stays in the JSON and CSV, and ShowAllTests on prints them as Table does.
  Figure,
};

/// One <ap_module> block's results; its BlockSettings are the settings the block ran with
/// (interface: the backend it ran on; hints: the block's Hint lines, each test's requested hints
/// are TestResult::hints_requested).
struct ModuleResult : BlockSettings {
  std::string module;          ///< module name
  std::string module_name;     ///< ModuleName as written
  std::string label;           ///< the block's label
  std::string config_location; ///< "file:line" of the block
  std::string library;         ///< the shared object
  std::string reference;       ///< where the module is defined
  Output output = Output::Table;
  ModuleFamily family = ModuleFamily::Patterns; ///< the module's family (ModuleInfo::family)
  long reps = 1;                                ///< ModuleReps (auto: the most it may run)
  bool reps_auto = false;     ///< ModuleReps auto: repeat until the median's interval is close
  double reps_target = 0;     ///< auto: the interval's half-width sought (0.05 = +-5 %)
  double reps_time_cap_s = 0; ///< auto: at most this long per test
  int read_shift = 0;         ///< ReadShift: rank r read what rank r + read_shift wrote
  std::map<std::string, std::vector<std::string>> settings; ///< the module's directives
  std::string files_from; ///< FilesFrom: the label of the block whose files it used ("" none)
  /// Every option of that backend by directive name, as shown (posix: ODirect; hdf5: H5*; mpiio:
  /// none), from the backend's own option table.
  std::map<std::string, std::string> interface_settings;
  int tests_planned = 0; ///< tests init_module returned (0 until it returned)
  /// The block's share of the run's SuiteTime, all repetitions (0: none; ModuleContext's is
  /// this over reps).
  double time_budget_s = 0;
  std::string started;              ///< when the block started on rank 0 (ISO 8601 UTC, ms)
  std::string finished;             ///< when it finished (after cleanup_module and the figure)
  std::vector<TestResult> tests;    ///< in order
  std::optional<ErrorRecord> error; ///< a failure outside a test (init, cleanup, figure)
  std::optional<Figure> figure;     ///< the module's figure of merit
};

/// A config file the run read (the main config first, then each Include'd one as read).
struct ConfigFile {
  std::string path;          ///< as read (an Include'd file: relative to its includer's directory)
  std::string included_from; ///< "file:line" of its Include ("" for the main config)
  std::string text;          ///< its text as written, before ${VAR} expansion
};

/// One `${NAME}` of the config and what it expanded to (docs/reference/configuration.md).
struct ConfigVariable {
  std::string name;          ///< NAME
  std::string value;         ///< the text put in its place
  bool set = false;          ///< NAME was set in the environment
  bool from_default = false; ///< the ${NAME:-default} text was used (NAME unset or empty)
  std::string file;          ///< where it is written
  int line = 0;              ///< the line in that file
};

/// The batch job the run ran in (Slurm's SLURM_JOB_ID or PBS's PBS_JOBID).
struct BatchJob {
  std::string scheduler; ///< "slurm" or "pbs"
  std::string id;        ///< the job id
  std::string nodes;     ///< its node list as the scheduler writes it (SLURM_JOB_NODELIST)
  int node_count = 0;    ///< nodes allocated (SLURM_JOB_NUM_NODES, PBS_NUM_NODES; 0 = unknown)
  int tasks = 0;         ///< tasks allocated (SLURM_NTASKS, PBS_NP; 0 = unknown)
  std::string partition; ///< partition or queue (SLURM_JOB_PARTITION, PBS_QUEUE)
};

/// One translator of a GlusterFS client graph: how the volume's servers tell its clients to
/// stack and set up the translators (the volume's options as they reach the client).
struct VolumeTranslator {
  std::string name;                                         ///< "piovol-write-behind"
  std::string type;                                         ///< "performance/write-behind"
  std::vector<std::pair<std::string, std::string>> options; ///< as the graph lists them
  std::vector<std::string> subvolumes;                      ///< the translators below it
};

/// The file system of the test file's directory as one node sees it (/proc/self/mountinfo,
/// /sys/block/loopN/loop, a GlusterFS mount's .meta directory; docs/reference/results.md).
struct FileSystemInfo {
  std::string type;              ///< "ext4", "fuse" (empty: the directory was not found)
  std::string subtype;           ///< a FUSE file system's subtype ("glusterfs"), else empty
  std::string mount_point;       ///< where it is mounted
  std::string source;            ///< the mount's source: a device, "server:volume"
  std::string mount_options;     ///< the mount's own options ("rw,relatime")
  std::string super_options;     ///< the file system's options ("rw,data=journal")
  std::string loop_backing_file; ///< the source is a loop device on this file, else empty
  bool loop_direct_io = false;   ///< that loop device reads and writes its file with O_DIRECT
  std::vector<VolumeTranslator> volume_graph; ///< GlusterFS: the client's active graph
  std::string client_command_line;            ///< GlusterFS: the client's command line
};

/// What a node was like when the run started, measured on it (docs/reference/results.md,
/// "Conditions").
struct NodeConditions {
  int usable_cores = 0;     ///< CPUs the node's ranks may run on (their affinity, cgroup quota)
  std::string cpus_allowed; ///< the union of the ranks' affinity masks, e.g. "0-1"
  /// The most CPUs one of the node's ranks may run on (1: every rank bound to one core; 0:
  /// unknown): unbound ranks that sleep in I/O may wake behind another rank (heavy_load).
  int rank_cpus = 0;
  double cpu_quota = 0; ///< cgroup cpu.max quota / period in CPUs (0: none)
  double load_1m = 0, load_5m = 0, load_15m = 0; ///< /proc/loadavg before the first block
  std::string governor; ///< cpu0's scaling_governor ("": no cpufreq, as in most VMs)
  /// virtio_balloon's free page reporting (VIRTIO_BALLOON_F_REPORTING): the VM hands freed
  /// memory back to its host, so a large write after a pause is slow; unset: no balloon.
  std::optional<bool> free_page_reporting;
  double memory_copy_MiBps = 0;    ///< memcpy rate measured once (a short STREAM-like copy)
  bool cpu_pressure = false;       ///< /proc/pressure/cpu is readable (heavy_load is measured)
  std::int64_t swapped_pages = -1; ///< pages swapped in and out during the run (-1: unknown)
};

/// One node of the run (MPI's shared-memory domain) and what it has, read on the node itself.
struct HostInfo {
  std::string name;              ///< MPI_Get_processor_name
  std::vector<int> ranks;        ///< the ranks placed on it (of the run's communicator)
  std::int64_t memory_bytes = 0; ///< physical memory (sysconf _SC_PHYS_PAGES x page size)
  int cpus = 0;                  ///< CPUs online
  std::string cpu_model;         ///< /proc/cpuinfo's model name
  std::string kernel;            ///< uname: system, release, machine
  std::string os;                ///< /etc/os-release's PRETTY_NAME
  FileSystemInfo file_system;    ///< the test file's directory's file system, seen from here
  NodeConditions conditions;     ///< load, cores, governor, memory copy rate ...
};

/// A whole run: provenance and every block.
struct RunResult {
  int schema_version = 0;
  std::string tool_version;
  int module_api_version = 0;
  std::string date; ///< ISO 8601, UTC
  std::vector<std::string> command_line;
  std::string mpi_library, mpi_standard;
  /// The I/O libraries in use and their versions ({"hdf5": "1.10.8", "mpi": "MPICH Version:
  /// 4.0.2"}: io::library_versions()).
  std::map<std::string, std::string> io_libraries;
  int processes = 0;
  std::vector<HostInfo> hosts; ///< every node with its ranks, by lowest rank
  std::string test_file, file_system;
  std::string test_path;         ///< TestFile as an absolute path
  std::string working_directory; ///< rank 0's working directory
  /// Seconds from MPI_Init's end (run()'s start in-process) to the first block's start, the
  /// largest over the ranks: the harness's start-up (docs/measurements/performance.md, "Start-up").
  double startup_s = 0;
  std::string config_path, config_text;
  std::vector<ConfigFile> config_files;         ///< every file read, the main config first
  std::vector<ConfigVariable> config_variables; ///< every ${VAR} expanded, in reading order
  /// Rank 0's environment that affects MPI-IO: ROMIO_HINTS and every MPICH_*, MPIR_CVAR_*,
  /// ROMIO_* and HWLOC_* variable.
  std::map<std::string, std::string> environment;
  /// The text of the file ROMIO_HINTS names (unset: ROMIO_HINTS is unset or names no readable
  /// regular file of at most 1 MiB).
  std::optional<std::string> romio_hints_text;
  std::optional<BatchJob> batch_job; ///< the Slurm or PBS job, when the run is in one
  std::string results_path;
  double suite_time_s = 0;        ///< SuiteTime, the budget the time-driven blocks share (0: none)
  std::string status = "running"; ///< running, complete, failed
  int exit_code = 0;
  std::vector<ModuleResult> modules;
  /// The values pio-tune gave this run (pio-harness --tune NAME=VALUE), by Tune name; empty for
  /// a run of the config as written (docs/guides/tuning.md).
  std::map<std::string, std::string> tuned;
  int rounds = 1;                ///< Rounds: how many times the blocks ran, each round shuffled
  std::uint64_t rounds_seed = 0; ///< the seed of the rounds' order (Rounds > 1)
  /// With Rounds > 1, one per block record (modules[i]): its round and the block's place in the
  /// config (the order of its first round is shuffled).
  struct BlockRound {
    int round = 1; ///< 1 .. rounds
    int block = 0; ///< the block's index in the config, sweeps expanded
  };
  std::vector<BlockRound> block_rounds;
};

} // namespace pio
