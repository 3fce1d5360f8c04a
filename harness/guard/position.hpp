#pragma once
/// The step in progress on this rank (module, test, method), kept in fixed buffers and atomics so
/// that the watchdog thread and the fatal-signal handlers (process_guard.hpp) can name it
/// async-signal-safely.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace pio::harness {

/// Records progress: the step this rank is entering. Cheap (relaxed atomic stores); a no-op
/// for timing purposes. `step` must be a string literal.
void heartbeat(const char *step) noexcept;

/// Records that this rank now waits for the other ranks (in an agreement or a barrier) after
/// the current step: the watchdog gives such a rank extra time, so that the rank really stuck
/// reports first.
void heartbeat_wait() noexcept;

/// Names the module and test being run, for the timeout and crash messages (truncated to 255
/// bytes).
void heartbeat_context(const std::string &where);

/// Writes "<module, test>, step <method>" into buf (always NUL-terminated); async-signal-safe.
void describe_position(char *buf, std::size_t size) noexcept;

/// Sets the rank the messages name.
void set_position_rank(int rank) noexcept;
/// The rank set by set_position_rank (-1 before); async-signal-safe.
int position_rank() noexcept;

/// How many heartbeats this rank has made so far, its modules' progress beats included (the
/// watchdog compares two readings).
unsigned long long heartbeats() noexcept;

/// The counter modules count their progress inside a long step in (ModuleContext::progress).
std::atomic<std::uint64_t> *module_progress() noexcept;

/// True while this rank waits for the other ranks after its step (heartbeat_wait).
bool waiting_for_others() noexcept;

} // namespace pio::harness
