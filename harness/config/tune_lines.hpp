#pragma once
/// The directives that declare a search for pio-tune (Tune, TuneHook) and the one that repeats a
/// run's blocks in shuffled rounds (Rounds), as rows of the harness directives table. A Tune line
/// is checked here for its form as it is read; its values are checked against the tuned
/// directive's spec once the blocks' modules are known (plan/tune_space.hpp). An ordinary run
/// ignores Tune and TuneHook: they describe what pio-tune may vary.

#include <string>
#include <vector>

#include "config/harness_directives.hpp"

namespace pio::harness {

/// The rows for Tune, TuneHook and Rounds, appended to the harness directives table.
std::vector<HarnessDirective> tune_directives();

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

/// The `{name}` placeholders of a TuneHook command, in order. Throws pio::Error for an
/// unbalanced brace or an empty name.
std::vector<std::string> hook_placeholders(const std::string &command);

/// How to write a Tune line, for error messages.
extern const char *const kTuneHint;

} // namespace pio::harness
