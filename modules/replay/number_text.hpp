#pragma once
// Strict number parsing for trace fields: the whole text must be the number.

#include <cstdint>
#include <optional>
#include <string>

namespace pio::replay {

/// A signed decimal integer filling all of `text`, or nothing.
std::optional<std::int64_t> whole_integer(const std::string &text);
/// A decimal number (as strtod reads it) filling all of `text`, or nothing.
std::optional<double> whole_real(const std::string &text);

} // namespace pio::replay
