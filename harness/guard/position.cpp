// The step in progress on this rank (position.hpp): lock-free, read by the watchdog and by the
// signal handlers.
#include "guard/position.hpp"

#include "guard/guard_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace pio::harness {

namespace {
// Written by the main thread alone (the watchdog reads it): a load and a store, not a locked
// read-modify-write, since the unit loop beats three times per work unit.
std::atomic<unsigned long long> g_beats{0};
std::atomic<std::uint64_t> g_module_beats{0}; // written by the module's thread alone
std::atomic<const char *> g_step{"start"};
std::atomic<bool> g_waiting{false};
std::atomic<int> g_rank{-1};
char g_where[256] = "the harness"; // written by the main thread, read by the watchdog and handlers

/// Appends s to buf at *pos (async-signal-safe).
void append(char *buf, std::size_t size, std::size_t *pos, const char *s) {
  while (*s && *pos + 1 < size)
    buf[(*pos)++] = *s++;
  buf[*pos] = '\0';
}

/// One more beat (the main thread's alone, see g_beats).
void beat() noexcept {
  g_beats.store(g_beats.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}
} // namespace

void heartbeat(const char *step) noexcept {
  g_step.store(step, std::memory_order_relaxed);
  g_waiting.store(false, std::memory_order_relaxed);
  beat();
}

void heartbeat_wait() noexcept {
  g_waiting.store(true, std::memory_order_relaxed);
  beat();
}

void heartbeat_context(const std::string &where) {
  const std::size_t n = std::min(where.size(), sizeof g_where - 1);
  std::memcpy(g_where, where.data(), n);
  g_where[n] = '\0';
  beat();
}

void set_position_rank(int rank) noexcept {
  g_rank.store(rank);
  guard_state().rank.store(rank); // the guardian's messages name it too
}

int position_rank() noexcept { return g_rank.load(); }

unsigned long long heartbeats() noexcept {
  return g_beats.load(std::memory_order_relaxed) + g_module_beats.load(std::memory_order_relaxed);
}

std::atomic<std::uint64_t> *module_progress() noexcept { return &g_module_beats; }

bool waiting_for_others() noexcept { return g_waiting.load(std::memory_order_relaxed); }

void describe_position(char *buf, std::size_t size) noexcept {
  std::size_t pos = 0;
  buf[0] = '\0';
  append(buf, size, &pos, g_where);
  append(buf, size, &pos, ", step ");
  append(buf, size, &pos, g_step.load(std::memory_order_relaxed));
  if (g_waiting.load(std::memory_order_relaxed))
    append(buf, size, &pos, " (done, waiting for the other ranks)");
}

} // namespace pio::harness
