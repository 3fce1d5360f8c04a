#pragma once
/// Flags as the console and the CSV write them (docs/reference/results.md, "Flags").

#include <set>
#include <string>
#include <vector>

#include "pio/flag.hpp"

namespace pio::harness {

/// The flags' names joined by `sep` in the order raised ("page_cache warm_up"); "" for none.
inline std::string flag_names(const std::vector<FlagRecord> &flags, const char *sep = " ") {
  std::string out;
  for (const auto &f : flags)
    out += (out.empty() ? "" : sep) + std::string(to_string(f.flag));
  return out;
}

/// The names of a set of flags in the docs' order, joined by `sep`.
inline std::string flag_names(const std::set<Flag> &flags, const char *sep = " ") {
  std::string out;
  for (Flag f : all_flags())
    if (flags.count(f))
      out += (out.empty() ? "" : sep) + std::string(to_string(f));
  return out;
}

/// The flags' "name: reason" joined by "; " (one CSV cell).
inline std::string flag_reasons(const std::vector<FlagRecord> &flags) {
  std::string out;
  for (const auto &f : flags)
    out += (out.empty() ? "" : "; ") + std::string(to_string(f.flag)) + ": " + f.reason;
  return out;
}

} // namespace pio::harness
