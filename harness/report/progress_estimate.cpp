// The time left of a run (progress_estimate.hpp). Per block: a time-driven phase lasts at least
// its budget, so budgets are a lower bound; a block with count-driven phases is estimated from
// the measured time per test repetition of the earlier blocks of its family, and without such
// blocks it contributes only its budgets and, while it runs, its remaining tests at its own
// shortest test so far: then the run's estimate is "at least".
#include "report/progress_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace pio::harness {

namespace {

double sum(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0); }

/// Every phase of the test is time-driven: its budgets say how long it takes.
bool time_driven(const PlannedTest &t) {
  return !t.budgets.empty() &&
         std::all_of(t.budgets.begin(), t.budgets.end(), [](double b) { return b > 0; });
}

/// What one block adds to the time left.
struct Part {
  bool known = false; ///< estimate is an estimate; otherwise only the lower bound is known
  double seconds = 0; ///< the estimate, or the lower bound
};

/// How many of a block's latest finished tests set its own pace (own_rate).
constexpr std::size_t kRecentTests = 20;

} // namespace

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

std::string eta_text(const Eta &eta) {
  switch (eta.kind) {
  case Eta::Kind::About:
    return "left ~" + progress_duration(eta.seconds);
  case Eta::Kind::AtLeast:
    return "left >=" + progress_duration(eta.seconds);
  case Eta::Kind::Unknown:
    break;
  }
  return "left ?";
}

const PlannedBlock *EtaEstimator::planned(int index) const {
  return index >= 0 && static_cast<size_t>(index) < plan_.size()
             ? &plan_[static_cast<size_t>(index)]
             : nullptr;
}

void EtaEstimator::block_started(int index, int count, double now) {
  index_ = index;
  count_ = count;
  in_block_ = true;
  block_start_ = test_start_ = now;
  tests_done_ = 0;
  min_test_s_ = -1;
  done_s_ = 0;
  recent_.clear();
  pos_test_ = -1;
}

void EtaEstimator::test_finished(double now) {
  const double took = now - test_start_;
  min_test_s_ = min_test_s_ < 0 ? took : std::min(min_test_s_, took);
  done_s_ += took;
  recent_.push_back(took);
  if (recent_.size() > kRecentTests)
    recent_.pop_front();
  ++tests_done_;
  test_start_ = now;
  pos_test_ = -1;
}

void EtaEstimator::unit_progress(int test, int rep, int phase, double in_phase) {
  pos_test_ = test;
  pos_rep_ = rep;
  pos_phase_ = phase;
  pos_in_phase_ = std::clamp(in_phase, 0.0, 1.0);
}

void EtaEstimator::block_finished(double now) {
  if (const PlannedBlock *b = planned(index_); b && in_block_ && !b->tests.empty()) {
    const double reps = static_cast<double>(b->tests.size()) * std::max(1L, b->reps);
    for (const std::string &key : {"m:" + b->module, "f:" + b->family}) {
      measured_[key].first += now - block_start_;
      measured_[key].second += reps;
    }
  }
  in_block_ = false;
}

double EtaEstimator::rate(const PlannedBlock &b) const {
  for (const std::string &key : {"m:" + b.module, "f:" + b.family})
    if (const auto it = measured_.find(key); it != measured_.end() && it->second.second > 0)
      return it->second.first / it->second.second;
  return -1;
}

double EtaEstimator::own_rate() const {
  if (tests_done_ <= 0 || recent_.empty())
    return -1;
  // The larger of the block's mean and its latest tests' mean: its tests may grow longer.
  const double latest =
      std::accumulate(recent_.begin(), recent_.end(), 0.0) / static_cast<double>(recent_.size());
  return std::max(done_s_ / tests_done_, latest);
}

Eta EtaEstimator::running_left(double now) const {
  const PlannedBlock *b = planned(index_);
  if (!b)
    return {Eta::Kind::Unknown, 0};
  const long reps = std::max(1L, b->reps);
  const auto tests = static_cast<int>(b->tests.size());
  double budget_left = 0, reps_left = 0;
  double running_done = 0; // the running test's share done, from its units (0: not known)
  int count_driven_after = 0;
  bool all_timed = true;
  for (int t = std::min(tests_done_, tests); t < tests; ++t) {
    const PlannedTest &test = b->tests[static_cast<size_t>(t)];
    const double per_rep = sum(test.budgets);
    double done = 0, reps_done = 0; // of the running test, from its units
    if (t == pos_test_ && !test.budgets.empty()) {
      const auto phase =
          static_cast<size_t>(std::clamp(pos_phase_, 0, static_cast<int>(test.budgets.size()) - 1));
      done = pos_rep_ * per_rep +
             std::accumulate(test.budgets.begin(), test.budgets.begin() + phase, 0.0) +
             test.budgets[phase] * pos_in_phase_;
      reps_done = pos_rep_ + (phase + pos_in_phase_) / test.budgets.size();
      running_done = std::clamp(reps_done / static_cast<double>(reps), 0.0, 1.0);
    }
    budget_left += std::max(0.0, per_rep * reps - done);
    reps_left += std::max(0.0, reps - reps_done);
    if (!time_driven(test)) {
      all_timed = false;
      if (t != pos_test_ && t != tests_done_)
        ++count_driven_after;
    }
  }
  if (b->budget_s > 0) // the module keeps to its share of SuiteTime
    return {Eta::Kind::About,
            std::max(budget_left, b->budget_s - (now - block_start_)) + b->settle_s};
  if (all_timed)
    return {Eta::Kind::About, budget_left + b->settle_s};
  if (const double per_rep = rate(*b); per_rep >= 0)
    return {Eta::Kind::About, std::max(budget_left, per_rep * reps_left) + b->settle_s};
  // The running test's own pace: its time so far over its share done (by its units).
  const double in_test = now - test_start_;
  const double projected = running_done > 0 ? in_test / running_done : -1;
  if (const double per_test = own_rate() >= 0 ? own_rate() : projected; per_test >= 0) {
    // The running test takes what its units say is left of it (else what is left of a test
    // at the block's pace), the others a whole test at the block's pace (or this test's).
    const double running = running_done > 0 ? in_test * (1 - running_done) / running_done
                                            : std::max(0.0, per_test - in_test);
    const double tests_after = std::max(0, tests - tests_done_ - 1);
    return {Eta::Kind::About,
            std::max(budget_left, running + per_test * tests_after) + b->settle_s};
  }
  // Not guessed: the tests after the running one take at least the block's shortest so far.
  return {Eta::Kind::AtLeast,
          budget_left + count_driven_after * std::max(0.0, min_test_s_) + b->settle_s};
}

Eta EtaEstimator::left(double now) const {
  Eta total{Eta::Kind::About, 0};
  bool unknown = false;
  auto add = [&](const Eta &part) {
    total.seconds += part.seconds;
    unknown = unknown || part.kind != Eta::Kind::About;
  };
  if (in_block_)
    add(running_left(now));
  for (int i = index_ + 1; i < std::max(count_, static_cast<int>(plan_.size())); ++i) {
    const PlannedBlock *b = planned(i);
    if (!b) {
      add({Eta::Kind::Unknown, 0});
      continue;
    }
    const long reps = std::max(1L, b->reps);
    double budgets = 0;
    bool all_timed = !b->tests.empty();
    for (const PlannedTest &t : b->tests) {
      budgets += sum(t.budgets) * reps;
      all_timed = all_timed && time_driven(t);
    }
    const double per_rep = rate(*b);
    if (b->budget_s > 0)
      add({Eta::Kind::About, std::max(budgets, b->budget_s) + b->settle_s});
    else if (all_timed || b->tests.empty())
      add({Eta::Kind::About, budgets + b->settle_s});
    else if (per_rep >= 0)
      add({Eta::Kind::About,
           std::max(budgets, per_rep * static_cast<double>(b->tests.size() * reps)) + b->settle_s});
    else
      add({Eta::Kind::AtLeast, budgets + b->settle_s});
  }
  if (unknown)
    total.kind = total.seconds > 0 ? Eta::Kind::AtLeast : Eta::Kind::Unknown;
  return total;
}

std::string planned_time_text(const std::vector<PlannedBlock> &plan) {
  const Eta eta = EtaEstimator(plan).left(0);
  long count_driven = 0;
  double capped = 0;
  for (const PlannedBlock &b : plan) {
    if (b.budget_s > 0)
      continue; // in eta: its share of SuiteTime
    bool counted = b.tests.empty();
    for (const PlannedTest &t : b.tests) {
      capped += sum(t.capped) * static_cast<double>(std::max(1L, b.reps));
      for (size_t i = 0; i < t.budgets.size(); ++i)
        counted = counted || (t.budgets[i] <= 0 && (i >= t.capped.size() || t.capped[i] <= 0));
    }
    count_driven += counted;
  }
  std::vector<std::string> parts;
  if (eta.seconds > 0 || (count_driven == 0 && capped <= 0))
    parts.push_back((eta.kind == Eta::Kind::About ? "~" : "at least ") +
                    progress_duration(eta.seconds) + " (time-driven phases and settle times)");
  if (capped > 0)
    parts.push_back("up to " + progress_duration(capped) + (parts.empty() ? "" : " more") +
                    " in time-driven phases a unit cap may end sooner");
  if (count_driven > 0) {
    const bool one = count_driven == 1;
    parts.push_back(std::to_string(count_driven) + " of " + std::to_string(plan.size()) +
                    (plan.size() == 1 ? " block " : " blocks ") + (one ? "is" : "are") +
                    " count-driven, known only as " + (one ? "it runs" : "they run"));
  }
  if (parts.size() == 1 && count_driven > 0)
    return "not known before the run (" + parts[0] + ")";
  std::string out;
  for (const auto &p : parts)
    out += (out.empty() ? "" : "; ") + p;
  return out;
}

} // namespace pio::harness
