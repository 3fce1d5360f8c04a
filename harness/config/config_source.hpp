#pragma once
/// Reading one config file safely before Dotconf sees it: Dotconf reads lines into a 4 KiB
/// buffer (a longer line is split and its tail parsed as a directive, joined continuation lines
/// overflow it), stops a line at a NUL byte, and crashes or hangs on some Include forms. The
/// harness therefore reads each file itself, refuses what Dotconf mishandles with file:line, and
/// does Include itself (config.cpp).

#include <cstddef>
#include <string>
#include <vector>

#include "pio/results.hpp"

namespace pio::harness {

/// The longest line (after joining `\` continuations) a config may have.
constexpr std::size_t kMaxConfigLine = 4000;
/// The largest config file (each file, Include'd ones too).
constexpr std::size_t kMaxConfigBytes = 1 << 20;
/// The directive name an `Include` line is renamed to, so that Dotconf never includes itself.
constexpr const char *kIncludeMarker = "%pio-include";

/// One config file as read and as handed to Dotconf.
struct ConfigSource {
  std::string path;          ///< as named
  std::string included_from; ///< "file:line" of the Include that read it ("" for the main config)
  std::string raw;           ///< its bytes
  std::string sanitized;     ///< same line numbers; continuations joined; Include renamed; ${VAR}
                             ///< expanded
  std::vector<ConfigVariable> variables; ///< every ${VAR} expanded, in order
};

/// Reads path: it must be a regular file of at most kMaxConfigBytes with no NUL byte and no line
/// longer than kMaxConfigLine. `IncludePath` is refused. Environment variables are expanded on
/// every line but comments (expand_variables). Throws ConfigError naming path:line, or (for a
/// file that cannot be read) from_file:from_line when it was Include'd there.
ConfigSource read_config_source(const std::string &path, const std::string &from_file = {},
                                int from_line = 0);

/// Expands one logical line of path:line (docs/reference/configuration.md, "Environment
/// variables"):
/// `${NAME}` is the variable's value, `${NAME:-text}` the value or, when unset or empty, text;
/// `$$` is one `$`; any other `$` stays. Appends each expansion to `used`. Throws ConfigError
/// at path:line for an unset variable without a default, a bad name, a `${` without its `}`, or
/// a value with a line break.
std::string expand_variables(const std::string &line, const std::string &path, int number,
                             std::vector<ConfigVariable> &used);

} // namespace pio::harness
