#include "pio/patterns/temporal_mode.hpp"

#include <algorithm>
#include <cctype>

#include "pio/error.hpp"

namespace pio::patterns {

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
} // namespace

TemporalMode parse_temporal_mode(const std::string &text) {
  const std::string t = lower(text);
  if (t == "write" || t == "write once")
    return TemporalMode::Write;
  if (t == "read" || t == "read once")
    return TemporalMode::Read;
  if (t == "read-modify-write" || t == "rmw" || t == "read modify write")
    return TemporalMode::ReadModifyWrite;
  if (t == "re-read" || t == "reread")
    return TemporalMode::ReRead;
  if (t == "re-write" || t == "rewrite")
    return TemporalMode::ReWrite;
  throw Error("unknown temporal mode '" + text + "'",
              "use one of write, read, read-modify-write, re-read, re-write (thesis §3.4.2)");
}

const char *temporal_mode_name(TemporalMode m) {
  switch (m) {
  case TemporalMode::Write:
    return "write";
  case TemporalMode::Read:
    return "read";
  case TemporalMode::ReadModifyWrite:
    return "read-modify-write";
  case TemporalMode::ReRead:
    return "re-read";
  case TemporalMode::ReWrite:
    return "re-write";
  }
  return "?";
}

DirectiveSpec temporal_mode_directive() {
  return {"Mode",
          DirectiveType::Text,
          "write",
          "temporal pattern (thesis §3.4.2); only the second access is timed in re-read/re-write",
          {"write", "read", "read-modify-write", "re-read", "re-write"}};
}

bool needs_prepared_file(TemporalMode m) {
  return m == TemporalMode::Read || m == TemporalMode::ReadModifyWrite || m == TemporalMode::ReRead;
}

PhaseAccess phase_access(TemporalMode m) {
  switch (m) {
  case TemporalMode::Read:
  case TemporalMode::ReadModifyWrite:
    return PhaseAccess::Read;
  case TemporalMode::ReRead:
    return PhaseAccess::ReRead;
  case TemporalMode::Write:
  case TemporalMode::ReWrite:
    return PhaseAccess::Write;
  }
  return PhaseAccess::Unstated;
}

} // namespace pio::patterns
