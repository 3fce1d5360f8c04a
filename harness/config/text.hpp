#pragma once
/// Small text helpers shared by the config reader, sweeps, labels and directive checks.

#include <string>

#include "pio/enum_words.hpp"

namespace pio::harness {

/// `s` in lower case (ASCII): directive names and keywords compare case-insensitively.
inline std::string lower(const std::string &s) { return lower_ascii(s); }

} // namespace pio::harness
