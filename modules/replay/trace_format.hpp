#pragma once
// TraceFormat: darshan-dxt-parser's text or an strace log, told apart by their first lines when
// the block does not say (docs/guides/replay.md).

#include <istream>
#include <optional>
#include <string>

namespace pio::replay {

/// The trace formats the replay reads.
enum class TraceFormat { Dxt, Strace };

/// "dxt", "strace".
const char *to_string(TraceFormat f);

/// The format of the trace `in` (named `path` in messages) from its first 64 lines that are
/// neither blank nor unrecognised comments; rewinds `in`. Throws pio::Error when they show
/// neither format.
TraceFormat guess_trace_format(std::istream &in, const std::string &path);

} // namespace pio::replay
