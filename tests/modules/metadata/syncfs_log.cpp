// The program's own syncfs and sync: log the call (syncfs: the descriptor's path, from
// /proc/self/fd) and make the system call. Exported from the executable (--export-dynamic-symbol)
// so that the module object, loaded later, binds them here rather than in the C library.
#include "syncfs_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace {

std::vector<std::string> &log() {
  static std::vector<std::string> l;
  return l;
}

int &syncs() {
  static int n = 0;
  return n;
}

std::function<void()> &hook() {
  static std::function<void()> h;
  return h;
}

} // namespace

namespace pio::test {

const std::vector<std::string> &syncfs_calls() { return log(); }

void clear_syncfs_calls() {
  log().clear();
  syncs() = 0;
}

int sync_calls() { return syncs(); }

void set_syncfs_hook(std::function<void()> h) { hook() = std::move(h); }

} // namespace pio::test

extern "C" int syncfs(int fd) {
  char path[4096] = {};
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), path, sizeof path - 1);
  log().emplace_back(n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("?"));
  const int rc = static_cast<int>(::syscall(SYS_syncfs, fd));
  if (hook())
    hook()();
  return rc;
}

extern "C" void sync() {
  ++syncs();
  ::syscall(SYS_sync);
}
