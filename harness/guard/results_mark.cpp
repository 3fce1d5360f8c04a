// Marking the results document in a signal handler (results_mark.hpp): the document is pretty
// JSON (two-space indent, sorted keys), so the run's own "status" and "exit_code" are the only
// lines starting with exactly two spaces and those keys (a string value never holds a raw newline).
#include "guard/results_mark.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "guard/guard_state.hpp"

namespace pio::harness {

namespace {

const char kStatus[] = "\n  \"status\": \"running\"";
const char kExit[] = "\n  \"exit_code\": 0,";

const char *find(const char *hay, std::size_t n, const char *needle) noexcept {
  const std::size_t k = std::strlen(needle);
  for (std::size_t i = 0; i + k <= n; ++i)
    if (hay[i] == needle[0] && std::memcmp(hay + i, needle, k) == 0)
      return hay + i;
  return nullptr;
}

bool put(int fd, const char *s, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t w = ::write(fd, s, n);
    if (w <= 0)
      return false;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool put(int fd, const char *s) noexcept { return put(fd, s, std::strlen(s)); }

} // namespace

void set_results_document(const std::string &path) {
  const std::string base = path.substr(path.find_last_of('/') + 1);
  const std::string dir =
      path.find('/') == std::string::npos ? "." : path.substr(0, path.find_last_of('/'));
  const std::string tmp =
      dir + "/." + base + "." + std::to_string(::getpid()) + ".interrupted.pio-tmp";
  GuardState &g = guard_state(); // shared with the guardian, which marks it if the rank cannot
  if (tmp.size() >= PATH_MAX || (g.results_named.load() && path == g.results_doc))
    return;
  g.results_named.store(false);
  std::memcpy(g.results_doc, path.c_str(), path.size() + 1);
  std::memcpy(g.results_tmp, tmp.c_str(), tmp.size() + 1);
  g.results_named.store(true);
}

bool mark_results_interrupted(const char *signal_name, int exit_code) noexcept {
  GuardState &g = guard_state();
  if (!g.results_named.load())
    return false;
  const char *doc_path = g.results_doc, *tmp_path = g.results_tmp;
  const int in = ::open(doc_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (in < 0)
    return false;
  struct stat st;
  if (::fstat(in, &st) != 0 || st.st_size <= 0) {
    ::close(in);
    return false;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void *map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, in, 0);
  ::close(in);
  if (map == MAP_FAILED)
    return false;
  const char *doc = static_cast<const char *>(map);
  const char *status = find(doc, size, kStatus);
  const char *code = find(doc, size, kExit);
  bool ok = false;
  if (status && code && code < status) { // sorted keys: exit_code comes before status
    char digits[16];
    int n = 0;
    unsigned u = exit_code < 0 ? 1u : static_cast<unsigned>(exit_code);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u > 0 && n < 15);
    char number[16];
    for (int i = 0; i < n; ++i)
      number[i] = digits[n - 1 - i];
    number[n] = '\0';
    const int out = ::open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out >= 0) {
      const std::size_t code_len = sizeof kExit - 1, status_len = sizeof kStatus - 1;
      ok =
          put(out, doc, static_cast<std::size_t>(code - doc)) && put(out, "\n  \"exit_code\": ") &&
          put(out, number) && put(out, ",") &&
          put(out, code + code_len, static_cast<std::size_t>(status - (code + code_len))) &&
          put(out, "\n  \"signal\": \"") && put(out, signal_name) && put(out, "\",") &&
          put(out, "\n  \"status\": \"interrupted\"") &&
          put(out, status + status_len, size - static_cast<std::size_t>(status + status_len - doc));
      ok = ::close(out) == 0 && ok && ::rename(tmp_path, doc_path) == 0;
      if (!ok)
        ::unlink(tmp_path);
    }
  }
  ::munmap(map, size);
  return ok;
}

} // namespace pio::harness
