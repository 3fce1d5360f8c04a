#pragma once
/// TimingScope's two values and their one spelling: the directive's words, the results' text.

#include <optional>
#include <string>
#include <vector>

#include "pio/enum_words.hpp"

namespace pio {

/// What the barriers of the timing method bracket (docs/reference/timing.md, "Timing scope").
enum class TimingScope {
  Unit,  ///< `unit`: B1 and B2 around every work unit (pio-bench thesis §3.2.1, the default)
  Phase, ///< `phase`: one B1 before the first unit and one B2 after the last, as IOR and IMB time
};

/// The one spelling of a TimingScope: the TimingScope word, the results' JSON and CSV
/// `timing_scope`, a block label's `TimingScope=phase`.
inline const char *to_string(TimingScope s) {
  switch (s) {
  case TimingScope::Unit:
    return "unit";
  case TimingScope::Phase:
    return "phase";
  }
  return "?";
}

/// TimingScope's words in order: unit, phase.
inline std::vector<std::string> timing_scope_words() {
  return {to_string(TimingScope::Unit), to_string(TimingScope::Phase)};
}

/// The scope a TimingScope word names (any case), if it names one.
inline std::optional<TimingScope> timing_scope(const std::string &word) {
  return enum_named(word, {TimingScope::Unit, TimingScope::Phase});
}

} // namespace pio
