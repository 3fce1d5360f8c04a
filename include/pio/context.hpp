#pragma once
/// What the harness passes to each of the seven module methods (thesis Appendix A, Tables
/// A.1-A.4, modernised: 64-bit sizes, communicators and rank groups, hints, collective and flush
/// flags, and the services the harness gives modules).

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pio/directive.hpp"
#include "pio/error.hpp"
#include "pio/io/backend.hpp"
#include "pio/io/interface.hpp"
#include "pio/spec.hpp"
#include "pio/tree_rule.hpp"
#include "pio/verify_mode.hpp"

namespace pio {

/// Services the harness gives modules (implemented by the harness).
class Services {
public:
  virtual ~Services() = default;
  /// Claims a file this rank is about to create and open itself (IMB-IO Open_Close, b_eff_io's
  /// shared-pointer probe): throws Error if it exists and was not created by this run (unless
  /// Overwrite is on). The harness deletes what it claimed and created after cleanup_module.
  virtual void claim_file(const std::string &path) = 0;
  /// Claims a directory the block's rank 0 is about to create and every rank to fill with trees
  /// of items (the metadata module's test directory), with the rules of what the run may make in
  /// it: the harness keeps the rule in the directory's owner record, so that after a crash or an
  /// interruption the rank's guardian or a later run removes exactly those entries (and nothing,
  /// if the directory holds one the rule does not allow). Rank 0 claims first; throws Error as
  /// claim_file does, or if the rule's names are not plain names. The other ranks call it after
  /// rank 0's claim succeeded: it notes that they fill the directory (their messages name it).
  virtual void claim_tree(const std::string &path, const TreeRules &rules) = 0;
};

/// The files this block shares with other blocks of the run (FilesFrom,
/// docs/reference/configuration.md, "Blocks that share files"): its test files and the directories
/// it claims are one chain's, made by the chain's first block, kept by the harness from block to
/// block and removed by it after the chain's last block (or at the run's end). Every block of a
/// chain runs on the same ranks and uses the same TestFile.
struct SharedFiles {
  /// An earlier block made the files and the claimed directories: use them as they are (no
  /// untimed preparing, no re-creating; a claim of the same path succeeds, the directory is not
  /// empty). The harness caps each phase at the units the earlier block's same test and phase
  /// completed on this rank (a stonewalled write leaves fewer), unless the test's
  /// TestSpec::chain_cap is FileSize.
  bool made_earlier = false;
  /// A later block uses them: leave every file and item in place at the block's end (the
  /// harness removes them after the last block of the chain); write data a reader can check
  /// (the stamp of pio/stamp.hpp) even when this block verifies nothing.
  bool used_later = false;
};

/// Module-wide context (Table A.1): valid from init_module to cleanup_module.
struct ModuleContext {
  MPI_Comm comm = MPI_COMM_WORLD; ///< all ranks of the block (its Processes ranks, else the run)
  int rank = 0;                   ///< rank in comm
  int size = 1;                   ///< size of comm
  std::string module_name;        ///< the name this block selected
  Settings settings;              ///< the module's own directives, validated, defaults filled in
  /// TestFile (global or per block; in a FilesFrom chain, the chain's first block's)
  std::string test_file;
  VerifyMode verify = VerifyMode::Off; ///< Verify: off, on (untimed checks) or timed (in the unit)
  bool sync_writes = false;            ///< SyncWrites: flush every write inside the timed unit
  bool collective = false;             ///< Collective on: use collective MPI-IO calls
  bool use_file_view = true;           ///< FileView on: describe accesses with a file view (MPI-IO)
  /// Interface: the block's I/O backend's word ("mpiio", "posix", "hdf5", a site's own).
  std::string interface;
  io::Capabilities capabilities; ///< what the block's backend can do
  /// The block's backend, configured with its options: it opens the test files for the harness
  /// and any file the module opens itself, and makes the namespace calls (Capability::Metadata).
  /// Never null in a run.
  io::Backend *backend = nullptr;
  std::map<std::string, std::string> hints; ///< Hint lines of the block (applied by the harness)
  Services *services = nullptr;             ///< the harness's services (never null in a run)
  SharedFiles shared; ///< FilesFrom: files an earlier block made, or a later block uses
  /// This block's share of the run's SuiteTime for one repetition of its tests, in seconds; 0
  /// when the run has no SuiteTime, the module has no ModuleInfo::time_directive or the block
  /// sets that directive itself (which then wins). A module with a time directive uses this
  /// when it is above 0, its directive's value otherwise (docs/guides/running.md, "site.conf").
  double time_budget_s = 0;
  /// True in the harness's pre-flight check (docs/reference/reliability.md): init_module is called
  /// for every block before any I/O only to find DirectiveErrors, then cleanup_module; no test
  /// runs. Compute the tests as in a run, but skip what creates files or takes time (probes,
  /// calibrations, large buffers).
  bool validate_only = false;
  /// Progress inside one long step (a work unit, describe_test or cleanup_module that works
  /// through a million items): the harness's StepTimeout watchdog counts it as the rank's
  /// heartbeat, so a healthy step longer than StepTimeout is not taken for a hang. Count with
  /// beat(); null outside the harness.
  std::atomic<std::uint64_t> *progress = nullptr;

  /// One step of progress (see progress): a relaxed increment of a counter only this thread
  /// writes, nothing in the timed path.
  void beat() const noexcept {
    if (progress)
      progress->store(progress->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  /// Claims a file this rank creates itself (see Services::claim_file).
  void claim_file(const std::string &path) const {
    if (!services)
      throw Error("claim_file(" + path + "): no harness services", "run the module in pio-harness");
    services->claim_file(path);
  }
  /// Collective over comm (rank: this rank in it): rank 0 claims a file the ranks of comm then
  /// open themselves, and tells the others before any of them does (a claim racing another
  /// rank's open would find the file there). A refusal throws on every rank alike: rank 0's
  /// message, the others naming rank 0, each with `fix`; no rank is left in a collective call.
  void claim_file_on_rank0(MPI_Comm comm, int rank, const std::string &path,
                           const std::string &fix) const {
    std::string refused;
    if (rank == 0) {
      try {
        claim_file(path);
      } catch (const Error &e) {
        refused = std::string(e.what()) + (e.hint().empty() ? "" : " (" + e.hint() + ")");
      }
    }
    int bad = !refused.empty();
    MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
    if (bad)
      throw Error(rank == 0 ? refused : "rank 0 could not claim " + path, fix);
  }
  /// Claims a directory for a tree of items (see Services::claim_tree).
  void claim_tree(const std::string &path, const TreeRules &rules) const {
    if (!services)
      throw Error("claim_tree(" + path + "): no harness services", "run the module in pio-harness");
    services->claim_tree(path, rules);
  }
  /// For what the module is about to make (e.g. "beff_io pattern type 1 (shared)"): throws a
  /// DirectiveError on Interface (init_module: the run stops before any I/O at the Interface
  /// line) unless the block's backend has every capability listed, naming those it lacks.
  void require(const std::string &what, const std::vector<io::Capability> &needs) const {
    std::string words, names;
    for (io::Capability c : needs)
      if (!capabilities.has(c)) {
        words += (words.empty() ? "" : ", ") + std::string(io::to_string(c));
        names += (names.empty() ? "" : " and ") + std::string(io::describe(c));
      }
    if (words.empty())
      return;
    throw DirectiveError("Interface",
                         what + " needs " + names + " (capability " + words +
                             "), which Interface " + interface + " does not offer",
                         "choose an Interface with " + words +
                             " for this block (pio-harness --list-interfaces shows each "
                             "interface's capabilities), or leave out what needs it");
  }
};

/// Per-test context (Tables A.2, A.4): valid from describe_test to cleanup_test of one
/// repetition. The test is read-only; a phase's unit count or time budget is changed through
/// set_work_units / set_time_budget, and every repetition starts from the declared test.
class TestContext {
public:
  /// Made by the harness: `running` is this repetition's copy of the declared test.
  TestContext(const ModuleContext &module, TestSpec &running)
      : module(&module), running_(&running) {}

  const ModuleContext *module; ///< the module-wide context
  int test_index = 0;          ///< index into the list init_module returned
  int rep = 0; ///< repetition (0 .. WarmUpReps + ModuleReps - 1: the warm-ups come first)
  MPI_Comm comm = MPI_COMM_NULL; ///< this rank's group in this test (RankGroups)
  /// Every rank taking part in this test, all its groups (IMB's "all processes of the active
  /// run": reductions over the groups, as IMB -multi's, and synchronising them); the run's rank 0
  /// is its rank 0. Equals comm when the test has one group.
  MPI_Comm all = MPI_COMM_NULL;
  int rank = 0;   ///< rank in comm
  int size = 1;   ///< size of comm
  int group = 0;  ///< this rank's group (0 .. groups-1)
  int groups = 1; ///< groups running the test at once
  /// The open file's I/O interface: every transfer, view, seek and flush on it goes through it
  /// (null for FileUse::None and in cleanup_test).
  io::Interface *io = nullptr;
  std::string file_path; ///< path of this rank's file (per-process files differ by rank)

  /// The test as declared, with any set_work_units / set_time_budget of this repetition.
  const TestSpec &spec() const { return *running_; }
  /// Sets a count-driven phase's work units (describe_test, or before the phase's first unit).
  void set_work_units(size_t phase, std::int64_t units) {
    running_->phases.at(phase).work_units = units;
  }
  /// Sets a phase's time budget in seconds (0 = count-driven); see Phase::time_budget_s.
  void set_time_budget(size_t phase, double seconds) {
    running_->phases.at(phase).time_budget_s = seconds;
  }
  /// Sets the operations per work unit of a communication test (IMB's run-time limit cuts its
  /// n_sample in describe_test); every group must set the same value.
  void set_ops_per_unit(std::int64_t ops) {
    if (running_->comm)
      running_->comm->ops_per_unit = ops;
  }

private:
  TestSpec *running_;
};

/// Per-work-unit context (Table A.3).
struct UnitContext {
  TestContext *test = nullptr; ///< the test this unit belongs to
  int phase = 0;               ///< index into spec().phases
  std::int64_t unit = 0;       ///< index of this unit within the phase (0-based)
  /// Units in the phase, or -1 while a time-driven phase is running; under the block's
  /// StoneWall the declared count, which the phase may stop short of (docs/reference/timing.md).
  std::int64_t units = 0;
  bool flush = false;      ///< flush writes inside the unit (SyncWrites)
  bool collective = false; ///< use collective calls
  /// Set by the harness: the phase's units may overlap. It runs all its `units` back to back in
  /// one window (TimingScope phase, count-driven, no StoneWall), so a module may leave a unit's
  /// transfers in flight into later units (up to Interface::queue_depth), completing every one
  /// by the end of the last unit's work_unit (docs/reference/timing.md, "Queue depth").
  bool may_overlap = false;
  /// Set by the module in work_unit (only where may_overlap): it returns with transfers still in
  /// flight. The harness then times the hooks up to the next unit too, since I/O goes on there.
  bool in_flight = false;
};

} // namespace pio
