// Signal handlers and the exit check (process_guard.hpp). Only async-signal-safe calls in the
// handlers: write, unlink, rmdir, raise, _exit, sigaction, and the guardian's pipe.
#include "guard/process_guard.hpp"

#include <limits.h>
#include <signal.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <mpi.h>

#include "guard/created_paths.hpp"
#include "guard/guard_state.hpp"
#include "guard/guardian.hpp"
#include "guard/position.hpp"
#include "guard/results_mark.hpp"
#include "guard/signal_name.hpp"

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
  char text_[4000]; // under PIPE_BUF (4096): one atomic write
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

const char *stop_text(int sig) noexcept {
  switch (sig) {
  case SIGINT:
    return "was interrupted (SIGINT)";
  case SIGHUP:
    return "was hung up (SIGHUP)";
  }
  return "was terminated (SIGTERM)";
}

/// How a claimed directory left by this rank gets emptied.
enum class TreeCleanup { NextRun, GuardianNow, GuardianAtExit };

/// "; removed a, b; left c (...), <who removes it>": what remove_tracked did, truthfully.
void describe_removal(Line &line, const Removal &r, TreeCleanup trees) noexcept {
  if (r.removed_count == 0 && r.left_count == 0 && r.companions == 0) {
    line << "; this rank had no file to remove";
    return;
  }
  if (r.removed_count > 0)
    line << "; removed " << r.removed.c_str();
  if (r.companions > 0)
    line << (r.removed_count > 0 ? " and " : "; removed ") << r.companions
         << " of ROMIO's hidden files beside them (.<name>.shfp.<n>)";
  if (r.left_count == 0)
    return;
  line << "; left " << r.left.c_str();
  if (r.trees_left == 0)
    return;
  switch (trees) {
  case TreeCleanup::GuardianNow:
    line << "; this rank's cleanup process (pid " << guardian_pid()
         << ") removes the items by that rule now";
    break;
  case TreeCleanup::GuardianAtExit:
    line << "; this rank's cleanup process (pid " << guardian_pid()
         << ") removes the items by that rule once this rank has ended";
    break;
  case TreeCleanup::NextRun:
    line << "; the next run with that TestFile removes the items by that rule";
  }
}

} // namespace

bool remove_and_say(const char *what, const char *at, const char *tail, bool hand_over) noexcept {
  Removal removal;
  remove_tracked(&removal);
  TreeCleanup trees = TreeCleanup::NextRun;
  if (removal.trees_left > 0 && hand_over && guardian_request_cleanup())
    trees = TreeCleanup::GuardianNow;
  else if (removal.trees_left > 0 && guardian_alive())
    trees = TreeCleanup::GuardianAtExit;
  char where[512];
  describe_position(where, sizeof where);
  Line line;
  struct utsname host; // uname is async-signal-safe; gethostname is not listed as such
  const bool named = ::uname(&host) == 0;
  line << "pio-harness: error: rank " << (position_rank() < 0 ? 0 : position_rank()) << " " << what
       << at << where << (named ? " on host " : "") << (named ? host.nodename : "");
  describe_removal(line, removal, trees);
  line << tail << "\n";
  line.write();
  return trees == TreeCleanup::GuardianNow;
}

namespace {

void on_fatal(int sig) {
  guard_state().stop_reason.store(sig);
  remove_and_say(death_of(sig), " in ",
                 " (fix: a bug in the module or the harness: run under a debugger or with core "
                 "dumps to see more)");
  mark_results_interrupted(signal_name(sig), 128 + sig);
  // SA_RESETHAND restored the default action: die of the same signal (the guardian sweeps what
  // is left).
  ::raise(sig);
}

void on_stop(int sig) {
  guard_state().stop_reason.store(sig); // first: mpiexec may kill this rank at any moment now
  // A directory of items takes longer to empty than mpiexec gives a rank (it kills every rank
  // once one has exited, and at once at a second Ctrl-C): the guardian empties it, and this rank
  // waits for it (a singleton's caller sees the cleanup done).
  mark_results_interrupted(signal_name(sig), 128 + sig); // before the guardian may mark it too
  const bool handed_over = remove_and_say(stop_text(sig), " in ", "", true);
  if (handed_over && guardian_wait())
    ::_exit(128 + sig);
  // mpiexec forwards the signal to every rank and kills the others (SIGKILL) once one exits:
  // give every rank a moment to say what it did first.
  const timespec pause{0, 300 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);
  ::_exit(128 + sig);
}

void check_exit() {
  if (g_runs.load() == 0 || g_aborting.load())
    return;
  guard_state().stop_reason.store(kStopExit);
  remove_and_say("called exit() before the run finished", " in ",
                 "; the run is failed (fix: a module reports errors by throwing pio::Error, never "
                 "by exit())");
  ::_exit(1);
}

alignas(16) char g_alt_stack[1 << 16];

} // namespace

void install_process_guards() {
  guard_state(); // mapped now, never first in a handler
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
  // One stop at a time: mpiexec's proxy sends SIGTERM (then SIGKILL) to a rank still in its
  // SIGINT handler once another rank has exited; a nested handler would start over.
  sigemptyset(&stop.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&stop.sa_mask, sig);
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
  guard_state().stop_reason.store(kStopAbort);
  char what[64];
  FixedText code;
  code << "called MPI_Abort (error code " << static_cast<long long>(errorcode) << ")";
  std::strncpy(what, code.c_str(), sizeof what - 1);
  what[sizeof what - 1] = '\0';
  remove_and_say(what, " in ",
                 " (fix: a module reports errors by throwing pio::Error, never by MPI_Abort)");
  // mpiexec kills every rank at once on an abort, and may drop what a rank wrote to stderr a
  // moment before: give the message time to reach the console.
  const timespec pause{0, 300 * 1000 * 1000};
  ::nanosleep(&pause, nullptr);
  return PMPI_Abort(comm, errorcode);
}
