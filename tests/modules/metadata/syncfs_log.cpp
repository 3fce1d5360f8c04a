// The program's own syncfs: logs the descriptor's path (/proc/self/fd) and makes the system
// call. Exported from the executable (--export-dynamic-symbol) so that the module object, loaded
// later, binds its syncfs here rather than in the C library.
#include "syncfs_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace {

std::vector<std::string> &log() {
  static std::vector<std::string> l;
  return l;
}

} // namespace

namespace pio::test {

const std::vector<std::string> &syncfs_calls() { return log(); }

void clear_syncfs_calls() { log().clear(); }

} // namespace pio::test

extern "C" int syncfs(int fd) {
  char path[4096] = {};
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), path, sizeof path - 1);
  log().emplace_back(n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("?"));
  return static_cast<int>(::syscall(SYS_syncfs, fd));
}
