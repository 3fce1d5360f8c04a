#pragma once
/// The time left of a run for its live progress lines (docs/reference/results.md, "Live progress"),
/// from what is known per block instead of a count of tests: the time budgets the modules declare
/// (time-driven phases: b_eff_io's T, TimeBudget) and, for count-driven blocks, the measured
/// time of earlier blocks of the same family (one shared object), else, once it has finished
/// some, of the running block's own latest tests. A block with none of these is not guessed:
/// the estimate then says only what it is at least.

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace pio::harness {

/// One test as init_module declared it: each phase's time budget in seconds (0: count-driven,
/// or time-driven with a unit cap, so that its budget bounds nothing).
struct PlannedTest {
  std::vector<double> budgets; ///< per phase
  /// Per phase: the budget of a time-driven phase that a unit cap may end first (0: none), an
  /// upper bound only (b_eff_io's MaxFileSize); empty when no phase has one.
  std::vector<double> capped = {};
};

/// One block as the pre-flight check saw it (rank 0), before it runs.
struct PlannedBlock {
  std::string module;  ///< its module: blocks of one module share a rate
  std::string family;  ///< the module's shared object: the rate when no block of module ran
  long reps = 1;       ///< ModuleReps
  double settle_s = 0; ///< ModuleSettleTime after the block
  /// The block's share of SuiteTime, all repetitions (0: none): the module keeps to it
  /// (b_eff_io's T), so the block takes about that long whatever its phases declare.
  double budget_s = 0;
  std::vector<PlannedTest> tests;
};

/// How much is known of the time left.
struct Eta {
  enum class Kind {
    About,   ///< every block left has an estimate: "~X"
    AtLeast, ///< some block left has none (neither budgets nor a rate): "at least X"
    Unknown, ///< nothing is known: "?"
  };
  Kind kind = Kind::Unknown;
  double seconds = 0;
};

/// "12.3s", "4m05s", "1h02m" ("?" for a negative or infinite time).
std::string progress_duration(double seconds);

/// "left ~4m10s", "left >=4m10s" or "left ?".
std::string eta_text(const Eta &eta);

/// The planned time of a run before it starts (--check): what its time-driven phases and settle
/// times take ("~4m10s"), what capped phases take at most, and how many blocks are known only as
/// they run, e.g. "at least 6.0s (time-driven phases and settle times); up to 15m00s more in
/// time-driven phases a unit cap may end sooner; 2 of 3 blocks are count-driven, known only as
/// they run".
std::string planned_time_text(const std::vector<PlannedBlock> &plan);

/// Follows a run block by block and estimates the time left (rank 0's progress reporter).
/// Times are seconds on one monotonic clock, passed in.
class EtaEstimator {
public:
  EtaEstimator() = default;
  /// The blocks of the run in order; blocks beyond them are taken as unknown.
  explicit EtaEstimator(std::vector<PlannedBlock> plan) : plan_(std::move(plan)) {}

  /// Block `index` (0-based) of `count` starts.
  void block_started(int index, int count, double now);
  /// The running block's test finished (its duration counts towards the block's own minimum).
  void test_finished(double now);
  /// Where the running test is: repetition, phase and the share of the phase done (0..1).
  void unit_progress(int test, int rep, int phase, double in_phase);
  /// The running block ended: its time counts towards its family's rate.
  void block_finished(double now);
  /// The time left from `now`.
  Eta left(double now) const;

private:
  const PlannedBlock *planned(int index) const;
  /// Measured seconds per test repetition of b's module, else of its family (< 0: none yet).
  double rate(const PlannedBlock &b) const;
  Eta running_left(double now) const;
  /// Seconds per test of the running block from its own finished tests (< 0: none yet).
  double own_rate() const;

  std::vector<PlannedBlock> plan_;
  /// Per module ("m:" name) and per family ("f:" object): summed block times and test reps.
  std::map<std::string, std::pair<double, double>> measured_;
  int index_ = -1, count_ = 0;
  bool in_block_ = false;
  double block_start_ = 0, test_start_ = 0;
  int tests_done_ = 0;
  double min_test_s_ = -1;    ///< the running block's shortest finished test (-1: none yet)
  double done_s_ = 0;         ///< the running block's finished tests, summed
  std::deque<double> recent_; ///< the running block's latest finished tests (kRecentTests)
  // The running test's position (from its units).
  int pos_test_ = -1, pos_rep_ = 0, pos_phase_ = 0;
  double pos_in_phase_ = 0;
};

} // namespace pio::harness
