#pragma once
/// Small text helpers shared by the config reader, sweeps, labels and directive checks.

#include <algorithm>
#include <cctype>
#include <string>

namespace pio::harness {

/// `s` in lower case (ASCII): directive names and keywords compare case-insensitively.
inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

} // namespace pio::harness
