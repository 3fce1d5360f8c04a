#pragma once
/// The placeholders of a TuneHook command (docs/guides/tuning.md): the values pio-tune substitutes.

#include <string>
#include <vector>

namespace pio::harness {

/// The `{name}` placeholders of a TuneHook command, in order. Throws pio::Error for an
/// unbalanced brace or an empty name.
std::vector<std::string> hook_placeholders(const std::string &command);

} // namespace pio::harness
