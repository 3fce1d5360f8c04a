#pragma once
/// When a test's figure is flagged (docs/reference/results.md, "Flags"): the rules that turn what a
/// run measured (the page cache before its reads, its repetitions' spread, the nodes' conditions)
/// into typed flags with a one-line reason, and the notes where the timing itself cannot be
/// vouched for. Pure functions over the typed results; rank 0 applies them as each test ends.

#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// page_cache: more than this share of the bytes a read phase reads was resident before it;
/// write_cache: more than this share of the bytes a write phase wrote was still dirty after it.
inline constexpr double kMostlyResident = 0.5;
/// wide_spread: the repetitions' coefficient of variation above this (3 repetitions or more).
inline constexpr double kWideCv = 0.10;
/// wide_spread: from this many repetitions on, one repetition apart from the others, which are
/// within kWideCv without it, is a note, not a spread (the figure, the median, does not rest on
/// it).
inline constexpr size_t kLoneOutlierMin = 5;
/// warm_up: the first repetition lies beyond the others' range by more than that range, and by
/// more than this factor less 1 (3 repetitions or more; ratios: on a log scale).
inline constexpr double kWarmUpMinShift = 0.10;
/// heavy_load: some task on a node waited for a CPU for more than this share of the test.
inline constexpr double kHeavyCpuWait = 0.20;
/// warm_up of a communication table: the first message length's time per operation above this
/// many times the next length's (longer messages do not take less time).
inline constexpr double kFirstLengthRatio = 2.0;
/// A note: the aggregate time above this many times every rank's own time (the barriers).
inline constexpr double kBarrierShare = 2.0;
/// A note: a rank's own time above the aggregate time by more than this share.
inline constexpr double kOwnAboveAggregate = 0.02;

/// Sets t.summary.steadiness, each repetition's flags, t.flags and t.notes from what t measured,
/// its block's settings and the run's hosts. Replaces what was there.
void assess_test(TestResult &t, const ModuleResult &block, const RunResult &run);

/// After a block's tests: flags warm_up on the first message length of each process count of
/// a communication block whose time per operation exceeds kFirstLengthRatio times the next
/// length's (IMB's tables: the first exchange paid for the connection). Returns the indices of
/// the tests it flagged.
std::vector<size_t> assess_first_lengths(ModuleResult &block);

/// Adds `flag` with `reason` to `flags` unless it is there already.
void add_flag(std::vector<FlagRecord> &flags, Flag flag, const std::string &reason);

} // namespace pio::harness
