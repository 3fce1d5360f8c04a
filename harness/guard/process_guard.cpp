// Signal handlers and the exit check (process_guard.hpp). Only async-signal-safe calls in the
// handlers: write, unlink, raise, _exit, sigaction.
#include "guard/process_guard.hpp"

#include <limits.h>
#include <signal.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <mpi.h>

#include "guard/created_paths.hpp"
#include "guard/position.hpp"
#include "guard/results_mark.hpp"

namespace pio::harness {

namespace {

std::atomic<int> g_runs{0};
std::atomic<bool> g_aborting{false}; // MPI_Abort said where: its exit() is no surprise

/// One message line built in place and written with a single write(2): a write of less than
/// PIPE_BUF bytes to mpiexec's pipe is atomic, so the lines of ranks dying together never
/// interleave.
class Line {
public:
  Line &operator<<(const char *s) noexcept {
    while (*s != '\0' && n_ + 1 < sizeof text_)
      text_[n_++] = *s++;
    return *this;
  }
  Line &operator<<(int v) noexcept {
    char digits[16];
    int n = 0;
    unsigned u = v < 0 ? 0u : static_cast<unsigned>(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u > 0 && n < 15);
    while (n > 0 && n_ + 1 < sizeof text_)
      text_[n_++] = digits[--n];
    return *this;
  }
  void write() noexcept {
    const char *s = text_;
    std::size_t n = n_;
    while (n > 0) {
      const ssize_t w = ::write(2, s, n);
      if (w <= 0)
        return;
      s += w;
      n -= static_cast<std::size_t>(w);
    }
  }

private:
  char text_[1024];
  std::size_t n_ = 0;
};

const char *death_of(int sig) noexcept {
  switch (sig) {
  case SIGSEGV:
    return "died of SIGSEGV (invalid memory access)";
  case SIGBUS:
    return "died of SIGBUS (bus error: e.g. a truncated mapped file)";
  case SIGABRT:
    return "died of SIGABRT (abort)";
  case SIGFPE:
    return "died of SIGFPE (arithmetic error)";
  case SIGILL:
    return "died of SIGILL (illegal instruction)";
  }
  return "died of a signal";
}

const char *signal_name(int sig) noexcept {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGABRT:
    return "SIGABRT";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  }
  return "a signal";
}

const char *stop_text(int sig) noexcept {
  switch (sig) {
  case SIGINT:
    return "was interrupted (SIGINT)";
  case SIGHUP:
    return "was hung up (SIGHUP)";
  }
  return "was terminated (SIGTERM)";
}

/// "pio-harness: error: rank R <what> in <module, test>, step <method> on host H<tail>" on stderr.
void say_position(const char *what, const char *tail) noexcept {
  char where[512];
  describe_position(where, sizeof where);
  Line line;
  struct utsname host; // uname is async-signal-safe; gethostname is not listed as such
  const bool named = ::uname(&host) == 0;
  line << "pio-harness: error: rank " << (position_rank() < 0 ? 0 : position_rank()) << " " << what
       << " in " << where << (named ? " on host " : "") << (named ? host.nodename : "") << tail;
  line.write();
}

void on_fatal(int sig) {
  say_position(death_of(sig), "; the files this rank created are removed (fix: a bug in the "
                              "module or the harness: run under a debugger or with core dumps "
                              "to see more)\n");
  remove_tracked();
  mark_results_interrupted(signal_name(sig), 128 + sig);
  // SA_RESETHAND restored the default action: die of the same signal.
  ::raise(sig);
}

void on_stop(int sig) {
  say_position(stop_text(sig), "; the files this rank created are removed\n");
  remove_tracked();
  mark_results_interrupted(signal_name(sig), 128 + sig);
  // mpiexec forwards the signal to every rank and kills the others (SIGKILL) once one exits:
  // give every rank a moment to clean up first.
  const timespec pause{0, 300 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);
  ::_exit(128 + sig);
}

void check_exit() {
  if (g_runs.load() == 0 || g_aborting.load())
    return;
  say_position("called exit() before the run finished",
               "; the run is failed (fix: a module reports errors by throwing pio::Error, never "
               "by exit())\n");
  remove_tracked();
  ::_exit(1);
}

alignas(16) char g_alt_stack[1 << 16];

} // namespace

void install_process_guards() {
  stack_t ss{};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = sizeof g_alt_stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction fatal {};
  fatal.sa_handler = on_fatal;
  fatal.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&fatal.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL})
    ::sigaction(sig, &fatal, nullptr);
  struct sigaction stop {};
  stop.sa_handler = on_stop;
  stop.sa_flags = SA_ONSTACK;
  sigemptyset(&stop.sa_mask);
  // SIGHUP (a closed terminal, a batch system's hang-up) ends the run like SIGTERM.
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(sig, &stop, nullptr);
  // A file-size limit (ulimit -f): the write that crosses it fails with EFBIG instead of
  // killing the rank, so the error path names rank, module, test and step and removes the files.
  ::signal(SIGXFSZ, SIG_IGN);
  std::atexit(check_exit);
  std::at_quick_exit(check_exit);
}

RunInProgress::RunInProgress() { ++g_runs; }
RunInProgress::~RunInProgress() { --g_runs; }

} // namespace pio::harness

// MPI_Abort through the MPI profiling interface (MPI-4.0 §15.2): a module that aborts is named
// with its step (the heartbeat position) and this rank's files go, then the real PMPI_Abort.
// pio-harness exports this symbol, so that module objects resolve their MPI_Abort to it.
extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
  using namespace pio::harness;
  g_aborting.store(true);
  Line line;
  char where[512];
  describe_position(where, sizeof where);
  line << "pio-harness: error: rank " << (position_rank() < 0 ? 0 : position_rank())
       << " called MPI_Abort (error code " << errorcode << ") in " << where
       << "; the files this rank created are removed (fix: a module reports errors by throwing "
          "pio::Error, never by MPI_Abort)\n";
  line.write();
  remove_tracked();
  // mpiexec kills every rank at once on an abort, and may drop what a rank wrote to stderr a
  // moment before: give the message time to reach the console.
  const timespec pause{0, 300 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);
  return PMPI_Abort(comm, errorcode);
}
