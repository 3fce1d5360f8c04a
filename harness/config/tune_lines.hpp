#pragma once
/// The form of a Tune line (what its name targets, its choices or range), which the plan checks
/// with its values against the tuned directive's spec once the blocks' modules are known
/// (plan/tune_space.hpp). The Tune, TuneHook and Rounds rows are in the harness directives
/// table. An ordinary run ignores Tune and TuneHook: they describe what pio-tune may vary.

#include <string>
#include <vector>

#include "config/harness_directives.hpp"

namespace pio::harness {

/// What a Tune line's name targets.
enum class TuneTarget {
  Hint,    ///< Hint:<key>, an MPI-IO hint
  Hook,    ///< Hook:<name>, a value only TuneHook commands see (a file-system setting)
  Harness, ///< a harness block setting a Sweep may vary (Collective, Interface, ODirect ...)
  Module,  ///< any other name: a directive of the block's module
};

/// The target as pio-tune reads it: "hint", "hook", "harness" or "module".
const char *to_string(TuneTarget t);

/// The target of a Tune name, and in `key` the hint key or hook name (the name otherwise).
TuneTarget tune_target(const std::string &name, std::string &key);

/// A Tune line's values as written: a choice list, or one range `<from>..<to>` with an optional
/// scale word (`log`, the default, or `linear`).
struct TuneValues {
  std::vector<std::string> choices; ///< the choices (empty for a range)
  std::string from, to;             ///< a range's bounds as written
  bool linear = false;              ///< `linear` after the range
  bool is_range() const { return choices.empty(); }
};

/// Splits and checks a Tune line's words (name, then values). Throws pio::Error for: no values,
/// one value only, a value written twice, a range with more words than a scale word, a bad
/// name (Hint: or Hook: without a key, a harness directive that cannot be tuned).
TuneValues check_tune_words(const std::vector<std::string> &words, bool global);

/// How to write a Tune line, for error messages.
std::string tune_hint();

} // namespace pio::harness
