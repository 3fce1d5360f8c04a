// ModuleReps as written (module_reps.hpp).
#include "config/module_reps.hpp"

#include "config/directive_check.hpp"

#include <cstdio>

#include "config/text.hpp"
#include "pio/directive.hpp"
#include "pio/error.hpp"

namespace pio::harness {

namespace {

const char *const kRepsHint =
    "write ModuleReps <n> (1 to 1000000), or ModuleReps auto [<target>%] [<seconds>], e.g. "
    "ModuleReps auto 5% 60";

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// A number in [lo, hi] from `text`; throws Error naming `what`.
double bounded(const std::string &text, const std::string &what, double lo, double hi) {
  double v = 0;
  try {
    v = parse_real(text);
  } catch (const Error &) {
    throw Error("ModuleReps auto: " + what + " '" + text + "' is not a number", kRepsHint);
  }
  if (!(v >= lo && v <= hi))
    throw Error("ModuleReps auto: " + what + " " + text + " is outside " + number_text(lo) +
                    " .. " + number_text(hi),
                kRepsHint);
  return v;
}

} // namespace

RepsSetting parse_module_reps(const std::vector<std::string> &words) {
  RepsSetting s;
  if (words.empty())
    throw Error("ModuleReps without a value", kRepsHint);
  if (lower(words[0]) != "auto") {
    if (words.size() != 1)
      throw Error("ModuleReps takes one count, got " + std::to_string(words.size()) + " words",
                  kRepsHint);
    // A count is checked as an integer directive's value is (its limits, its wording).
    const DirectiveSpec count =
        DirectiveSpec{"ModuleReps", DirectiveType::Integer, "1", "repetitions"}.between(1, 1e6);
    try {
      s.reps = static_cast<long>(parse_integer(check_directive(count, words).at(0)));
    } catch (const Error &e) {
      throw Error(e.what(), e.hint() + "; or ModuleReps auto [<target>%] [<seconds>]");
    }
    return s;
  }
  s.automatic = true;
  s.reps = kAutoRepsMax;
  bool target = false, cap = false;
  for (size_t i = 1; i < words.size(); ++i) {
    std::string w = words[i];
    if (!w.empty() && w.back() == '%') {
      if (target)
        throw Error("ModuleReps auto: two targets (" + words[i] + ")", kRepsHint);
      s.target = bounded(w.substr(0, w.size() - 1), "target", 0.1, 50) / 100;
      target = true;
      continue;
    }
    if (!w.empty() && (w.back() == 's' || w.back() == 'S'))
      w.pop_back();
    if (cap)
      throw Error("ModuleReps auto: two time caps (" + words[i] + ")", kRepsHint);
    s.time_cap_s = bounded(w, "time cap in seconds", 0.1, 86400);
    cap = true;
  }
  return s;
}

} // namespace pio::harness
