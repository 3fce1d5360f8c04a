// Live progress lines (progress_reporter.hpp); the estimate of what is left is the
// EtaEstimator's (progress_estimate.hpp), told every block, test and unit.
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

ProgressReporter::ProgressReporter(std::ostream &out, ProgressClock clock, double interval,
                                   bool every_block_end)
    : out_(&out), clock_(clock ? std::move(clock) : ProgressClock(steady_seconds)),
      interval_(interval), every_block_end_(every_block_end),
      last_line_(-std::numeric_limits<double>::infinity()) {}

void ProgressReporter::emit(double now, const std::string &text) {
  *out_ << "pio-harness: progress: " << text << "\n" << std::flush;
  last_line_ = now;
}

std::string ProgressReporter::prefix() const {
  return "[" + std::to_string(index_ + 1) + "/" + std::to_string(count_) + "] " +
         (block_ ? block_->label : std::string("?"));
}

std::string ProgressReporter::times(double now) const {
  return "elapsed " + progress_duration(now - run_start_) + ", " + eta_text(eta_.left(now));
}

void ProgressReporter::run_started(const RunResult &) { run_start_ = clock_(); }

void ProgressReporter::block_started(const RunResult &, const ModuleResult &block, int index,
                                     int count) {
  const double now = clock_();
  block_ = &block;
  index_ = index;
  count_ = count;
  block_start_ = now;
  eta_.block_started(index, count, now);
  emit(now, prefix() + " (" + block.module + "): started, " + times(now));
}

void ProgressReporter::test_finished(const RunResult &, const ModuleResult &block,
                                     const TestResult &test) {
  const double now = clock_();
  block_ = &block;
  eta_.test_finished(now);
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
  long failed = std::count_if(block.tests.begin(), block.tests.end(),
                              [](const TestResult &t) { return t.error.has_value(); });
  std::string text = prefix() + ": block " + (block.error || failed ? "FAILED" : "done") + ", " +
                     std::to_string(block.tests.size()) + "/" +
                     std::to_string(block.tests_planned) + " tests";
  if (failed)
    text += " (" + std::to_string(failed) + " failed)";
  text += " in " + progress_duration(now - block_start_);
  eta_.block_finished(now);
  block_ = nullptr;
  if (every_block_end_ || due(now))
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
    if (test.test_index != phase_test_ || test.rep != phase_rep_ || phase != phase_) {
      phase_test_ = test.test_index;
      phase_rep_ = test.rep;
      phase_ = phase;
      phase_start_ = now - aggregate_time_s;
    }
    // How far the phase is: by its units, or by the wall time of its budget when time-driven
    // (the root ends it by wall time; its timed part leaves out hooks and waits).
    double in_phase = 0;
    if (p.time_budget_s > 0)
      in_phase = std::min(1.0, (now - phase_start_) / p.time_budget_s);
    else if (p.work_units > 0)
      in_phase = std::min(1.0, static_cast<double>(units) / static_cast<double>(p.work_units));
    const long reps = std::max(1L, block_->reps);
    eta_.unit_progress(test.test_index, test.rep, phase, in_phase);
    if (!due(now))
      return;
    std::string text = prefix() + ": test " + std::to_string(test.test_index + 1) + "/" +
                       std::to_string(block_->tests_planned) + " (" + spec.label + ")";
    if (block_->reps_auto) // ModuleReps auto: the count is not known in advance
      text += " rep " + std::to_string(test.rep + 1) + " (auto)";
    else if (reps > 1)
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
