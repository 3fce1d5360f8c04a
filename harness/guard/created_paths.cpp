// The paths this process created and must remove if it dies (created_paths.hpp): fixed slots, so
// that a signal handler can unlink them.
#include "guard/created_paths.hpp"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>

namespace pio::harness {

namespace {

constexpr int kSlots = 256;
char g_paths[kSlots][PATH_MAX];
std::atomic<bool> g_used[kSlots];
std::mutex g_slots_mutex; // between threads adding and removing; handlers only read
} // namespace

void track_created(const std::string &path) {
  if (path.size() >= PATH_MAX)
    return;
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && path == g_paths[i])
      return;
  for (int i = 0; i < kSlots; ++i)
    if (!g_used[i].load()) {
      std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
      g_used[i].store(true);
      return;
    }
}

void untrack_created(const std::string &path) {
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && path == g_paths[i])
      g_used[i].store(false);
}

void remove_tracked() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) {
      g_used[i].store(false);
      if (::unlink(g_paths[i]) != 0)
        ::rmdir(g_paths[i]); // a claimed directory: removed only if empty (rmdir is signal-safe)
    }
}

} // namespace pio::harness
