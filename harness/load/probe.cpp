// open_in_child (probe.hpp): fork, open in the child, report what ended it.
#include "load/probe.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pio/error.hpp"

namespace pio::harness {

namespace {

const char *signal_text(int sig) {
  switch (sig) {
  case SIGBUS:
    return "SIGBUS (bus error: e.g. a truncated file)";
  case SIGSEGV:
    return "SIGSEGV (invalid memory access)";
  case SIGABRT:
    return "SIGABRT (abort)";
  case SIGFPE:
    return "SIGFPE (arithmetic error)";
  case SIGILL:
    return "SIGILL (illegal instruction)";
  }
  return nullptr;
}

} // namespace

ProbeResult open_in_child(const std::string &path,
                          const std::function<std::string(const LoadedLibrary &)> &describe) {
  int fds[2];
  if (::pipe(fds) != 0)
    return {"", path + ": cannot open it in a child process: pipe failed: " + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {"", path + ": cannot open it in a child process: fork failed: " + std::strerror(errno)};
  }
  if (pid == 0) {
    ::close(fds[0]);
    // The harness's crash handlers speak of runs and ranks; here the parent names the object.
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL})
      ::signal(sig, SIG_DFL);
    std::string text;
    int code = 0;
    try {
      text = describe(load_library(path));
    } catch (const Error &e) {
      text = std::string(e.what()) + (e.hint().empty() ? "" : " (" + e.hint() + ")");
      code = 3;
    } catch (const std::exception &e) {
      text = path + ": " + e.what();
      code = 3;
    }
    const char *p = text.data();
    std::size_t n = text.size();
    while (n > 0) {
      const ssize_t w = ::write(fds[1], p, n);
      if (w <= 0)
        break;
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    ::_exit(code); // no atexit handlers, no MPI: the parent owns those
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t r; (r = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (r < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    text.append(buf, static_cast<std::size_t>(r));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char *name = signal_text(sig);
    return {"", path + ": opening it killed the process with " +
                    (name ? std::string(name) : "signal " + std::to_string(sig)) +
                    " (a broken object: truncated, or a static initialiser that crashes; "
                    "rebuild it or remove it from the module path)"};
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 3)
    return {"", text};
  if (code != 0)
    return {"", path + ": opening it ended the process with exit code " + std::to_string(code) +
                    " (a static initialiser that exits; rebuild it or remove it from the module "
                    "path)"};
  return {text, ""};
}

} // namespace pio::harness
