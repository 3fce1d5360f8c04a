#pragma once
/// Verify's three values and their one spelling: the directive's words, the results' text.

#include <optional>
#include <string>
#include <vector>

#include "pio/enum_words.hpp"
#include "pio/error.hpp"

namespace pio {

/// What `Verify` asks of a module (docs/reference/timing.md, "Verification").
enum class VerifyMode {
  Off,     ///< no stamps, no checks
  Untimed, ///< `on`: stamp written data and check it in the untimed methods
  Timed,   ///< `timed`: the work unit stamps what it writes and checks what it reads (IOR -R)
};

/// The one spelling of a VerifyMode: the Verify word, and the results' JSON and CSV `verify`.
inline const char *to_string(VerifyMode m) {
  switch (m) {
  case VerifyMode::Off:
    return "off";
  case VerifyMode::Untimed:
    return "on";
  case VerifyMode::Timed:
    return "timed";
  }
  return "?";
}

/// Verify's words in order: off, on, timed.
inline std::vector<std::string> verify_mode_words() {
  return {to_string(VerifyMode::Off), to_string(VerifyMode::Untimed), to_string(VerifyMode::Timed)};
}

/// The mode a Verify word names (any case), if it names one.
inline std::optional<VerifyMode> verify_mode(const std::string &word) {
  return enum_named(word, {VerifyMode::Off, VerifyMode::Untimed, VerifyMode::Timed});
}

/// For a module that checks its data only in its untimed methods: true for Verify on, false
/// for off; for timed throws a DirectiveError on Verify (init_module: the run stops before any
/// I/O with the Verify line's file:line), naming the module.
inline bool untimed_verify_only(VerifyMode m, const std::string &module) {
  if (m == VerifyMode::Timed)
    throw DirectiveError("Verify",
                         module + " checks its data only outside the timed work unit and "
                                  "cannot run with Verify timed",
                         "write Verify on (or off) in this block; Verify timed is for the "
                         "pattern modules and metadata (a global Verify line reaches every block)");
  return m == VerifyMode::Untimed;
}

} // namespace pio
