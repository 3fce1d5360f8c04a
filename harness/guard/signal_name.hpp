#pragma once
/// The names of the signals the guards handle, for their messages and the results' "signal".

namespace pio::harness {

/// "SIGINT", "SIGKILL", ... (async-signal-safe).
const char *signal_name(int sig) noexcept;

} // namespace pio::harness
