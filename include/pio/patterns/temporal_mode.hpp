#pragma once
/// The five temporal access patterns of thesis §3.4.2.

#include <string>

#include "pio/directive.hpp"
#include "pio/spec.hpp"

namespace pio::patterns {

/// Thesis §3.4.2: read once, write once, read-modify-write, re-read, re-write.
enum class TemporalMode { Write, Read, ReadModifyWrite, ReRead, ReWrite };

/// Parses "write", "read", "read-modify-write" (or "rmw"), "re-read", "re-write"; throws
/// pio::Error.
TemporalMode parse_temporal_mode(const std::string &text);
/// The canonical name ("read-modify-write", ...).
const char *temporal_mode_name(TemporalMode m);
/// The Mode directive every pattern module declares (default "write"); "Title (mode)" sets it.
DirectiveSpec temporal_mode_directive();
/// True for modes whose file must hold data before the timed unit (read, rmw, re-read).
bool needs_prepared_file(TemporalMode m);
/// What a mode's timed units do to the file (TestSpec's Phase::access): read and
/// read-modify-write read, re-read reads what its untimed hook just read, the others write.
PhaseAccess phase_access(TemporalMode m);

/// The modification read-modify-write applies to every byte (so verification can tell it happened).
inline constexpr unsigned char kModifyMask = 0xA5;

} // namespace pio::patterns
