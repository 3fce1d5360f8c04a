// Live progress lines (progress_reporter.hpp). The estimate of what is left: the running test
// is extrapolated from the share of its units done (over repetitions and phases), each later
// test of the block takes the mean of the block's tests so far, and each later block the mean
// of the blocks so far.
#include "report/progress_reporter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pio::harness {

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

} // namespace

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string progress_duration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    return "?";
  char buf[64];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds) / 3600,
                  static_cast<int>(seconds) % 3600 / 60);
  return buf;
}

ProgressReporter::ProgressReporter(std::ostream &out, ProgressClock clock, double interval)
    : out_(&out), clock_(clock ? std::move(clock) : ProgressClock(steady_seconds)),
      interval_(interval), last_line_(-std::numeric_limits<double>::infinity()) {}

void ProgressReporter::emit(double now, const std::string &text) {
  *out_ << "pio-harness: progress: " << text << "\n" << std::flush;
  last_line_ = now;
}

std::string ProgressReporter::prefix() const {
  return "[" + std::to_string(index_ + 1) + "/" + std::to_string(count_) + "] " +
         (block_ ? block_->label : std::string("?"));
}

std::string ProgressReporter::times(double now) const {
  const double elapsed = now - run_start_;
  double left = std::numeric_limits<double>::quiet_NaN();
  const int later_blocks = count_ - index_ - 1;
  if (block_) {
    const double in_block = now - block_start_;
    const auto done = static_cast<double>(block_->tests.size());
    const int planned = block_->tests_planned;
    if (planned > 0 && (done > 0 || test_fraction_ > 0)) {
      // The running test by its own rate, each test after it as the mean test so far.
      double running_left = 0, mean_test = 0;
      if (test_fraction_ > 0) {
        const double running_total = (now - test_start_) / test_fraction_;
        running_left = running_total - (now - test_start_);
        mean_test = (test_start_ - block_start_ + running_total) / (done + 1);
      } else {
        mean_test = in_block / done;
      }
      const double after = std::max(0.0, planned - done - (test_fraction_ > 0 ? 1 : 0));
      const double block_left = std::max(0.0, running_left + mean_test * after);
      const double mean_block = (blocks_time_ + in_block + block_left) / (blocks_done_ + 1);
      left = block_left + mean_block * later_blocks;
    } else if (blocks_done_ > 0) {
      const double mean_block = blocks_time_ / blocks_done_;
      left = std::max(0.0, mean_block - in_block) + mean_block * later_blocks;
    }
  } else if (blocks_done_ > 0) {
    left = blocks_time_ / blocks_done_ * later_blocks; // between blocks: index_ is done
  }
  return "elapsed " + progress_duration(elapsed) + ", left ~" + progress_duration(left);
}

void ProgressReporter::run_started(const RunResult &) {
  run_start_ = clock_();
}

void ProgressReporter::block_started(const RunResult &, const ModuleResult &block, int index,
                                     int count) {
  const double now = clock_();
  block_ = &block;
  index_ = index;
  count_ = count;
  block_start_ = test_start_ = now;
  test_fraction_ = 0;
  if (due(now))
    emit(now, prefix() + " (" + block.module + "): started, " + times(now));
}

void ProgressReporter::test_finished(const RunResult &, const ModuleResult &block,
                                     const TestResult &test) {
  const double now = clock_();
  block_ = &block;
  test_fraction_ = 0;
  test_start_ = now; // the next test's, near enough: the harness's work in between is small
  if (!due(now))
    return;
  std::string outcome = test.error ? "FAILED" : "done";
  const Stats &rate = rate_stats(test);
  if (!test.error && rate.count > 0 && rate.mean > 0)
    outcome += ", " + fixed(rate.mean, 1) + " " + merit_unit(test.merit);
  emit(now, prefix() + ": test " + std::to_string(test.index + 1) + "/" +
                std::to_string(block.tests_planned) + " (" + test.label + ") " + outcome + ", " +
                times(now));
}

void ProgressReporter::block_finished(const RunResult &, const ModuleResult &block) {
  const double now = clock_();
  block_ = &block;
  test_fraction_ = 0;
  long failed = std::count_if(block.tests.begin(), block.tests.end(),
                              [](const TestResult &t) { return t.error.has_value(); });
  std::string text = prefix() + ": block " + (block.error || failed ? "FAILED" : "done") + ", " +
                     std::to_string(block.tests.size()) + "/" +
                     std::to_string(block.tests_planned) + " tests";
  if (failed)
    text += " (" + std::to_string(failed) + " failed)";
  text += " in " + progress_duration(now - block_start_);
  blocks_time_ += now - block_start_;
  ++blocks_done_;
  block_ = nullptr;
  emit(now, text + ", " + times(now));
}

void ProgressReporter::run_finished(const RunResult &) {}

void ProgressReporter::unit_done(const TestContext &test, int phase, std::int64_t units,
                                 std::int64_t bytes, double aggregate_time_s) noexcept {
  try {
    const double now = clock_();
    const TestSpec &spec = test.spec();
    const auto phases = static_cast<int>(spec.phases.size());
    if (phase < 0 || phase >= phases || !block_)
      return;
    const Phase &p = spec.phases[static_cast<std::size_t>(phase)];
    // How far the phase is: by its units, or by its time budget when time-driven.
    double in_phase = 0;
    if (p.time_budget_s > 0)
      in_phase = std::min(1.0, aggregate_time_s / p.time_budget_s);
    else if (p.work_units > 0)
      in_phase = std::min(1.0, static_cast<double>(units) / static_cast<double>(p.work_units));
    const long reps = std::max(1L, block_->reps);
    test_fraction_ = std::min(1.0, (test.rep + (phase + in_phase) / phases) / reps);
    if (!due(now))
      return;
    std::string text = prefix() + ": test " + std::to_string(test.test_index + 1) + "/" +
                       std::to_string(block_->tests_planned) + " (" + spec.label + ")";
    if (reps > 1)
      text += " rep " + std::to_string(test.rep + 1) + "/" + std::to_string(reps);
    if (phases > 1 || !p.label.empty())
      text += " " + (p.label.empty() ? "phase " + std::to_string(phase + 1) : p.label);
    text += ": units " + std::to_string(units);
    if (p.time_budget_s > 0)
      text += " (time-driven, " + progress_duration(p.time_budget_s) + " budget)";
    else
      text += "/" + std::to_string(p.work_units);
    text += ", " + times(now);
    // Rank 0's bytes times the ranks: the patterns move the same amount on every rank.
    if (bytes > 0 && aggregate_time_s > 0 && test.spec().merit == Merit::Bandwidth)
      text += ", " +
              fixed(static_cast<double>(bytes) * test.size * test.groups / aggregate_time_s /
                        (1024.0 * 1024.0),
                    1) +
              " MiB/s";
    emit(now, text);
  } catch (...) {
    // Progress is a courtesy: never a reason for a unit to fail.
  }
}

} // namespace pio::harness
