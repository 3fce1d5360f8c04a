// The rank's guardian (guardian.hpp): forked before MPI_Init, woken by a byte on its pipe (the
// rank is stopping and asks it to clean up now) or by the pipe's end (the rank is gone).
#include "guard/guardian.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "guard/created_paths.hpp"
#include "guard/guard_state.hpp"
#include "guard/owner_record.hpp"
#include "guard/results_mark.hpp"
#include "guard/signal_name.hpp"
#include "guard/tree_sweep.hpp"

namespace pio::harness {

namespace {

int g_pipe = -1; // the rank's end: a byte asks for the cleanup, closing it says the rank is gone

/// How long the guardian retries a claimed directory whose sweep another rank's last items
/// disturbed (the ranks of an interrupted run end within a moment of each other).
constexpr double kTreeRetryS = 20;

/// What the guardian did to one claimed directory.
struct TreeOutcome {
  bool removed = false;
  std::size_t entries = 0;
  std::string refusal; ///< why it left the directory ("" if removed)
};

/// Empties `dir`, claimed by this run with the rules in its owner record, and removes it; its
/// record goes once it is gone. Retries while other ranks still make their last items.
TreeOutcome remove_tree(const std::string &dir) {
  TreeOutcome out;
  const auto record = read_owner_record(dir);
  if (!record || record->run_id != my_owner_record().run_id || record->trees.empty()) {
    out.refusal = "its owner record " + owner_record_path(dir) + " is not this run's";
    return out;
  }
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + std::chrono::duration_cast<clock::duration>(
                                        std::chrono::duration<double>(kTreeRetryS));
  for (;;) {
    const TreeSweep sweep = sweep_tree(dir, record->trees);
    if (!sweep.foreign.empty()) {
      out.refusal = "it holds " + sweep.foreign + " (" + sweep.why +
                    "), which this run did not make; nothing in it was removed";
      return out;
    }
    const std::string failed = remove_swept(sweep);
    out.entries += sweep.items.size();
    if (failed.empty() && ::rmdir(dir.c_str()) == 0) {
      out.entries += sweep.dirs.size();
      out.removed = true;
      return out;
    }
    if (clock::now() >= until) {
      out.refusal = failed.empty() ? "rmdir " + dir + ": " + std::strerror(errno) : failed;
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // a rank's last items
  }
}

/// Waits on the pipe for a byte or its end; then cleans up unless the rank disarmed it.
[[noreturn]] void guard(int fd) {
  char byte = 0;
  ssize_t n;
  do
    n = ::read(fd, &byte, 1);
  while (n < 0 && errno == EINTR);
  GuardState &g = guard_state();
  if (!g.disarmed.load()) {
    const std::string said = clean_up_after_rank();
    if (!said.empty())
      (void)!::write(2, said.data(), said.size());
  }
  g.cleanup_done.store(1);
  ::_exit(0);
}

std::string rank_text() {
  const int rank = guard_state().rank.load();
  return "rank " + std::to_string(rank < 0 ? 0 : rank);
}

} // namespace

std::string clean_up_after_rank() {
  GuardState &g = guard_state();
  const int reason = g.stop_reason.load();
  Removal files;
  remove_tracked(&files); // what the rank had no time to remove (it was killed)
  std::string text;
  if (files.removed_count > 0 || files.companions > 0)
    text += "pio-harness: note: " + rank_text() +
            (reason == kStopUnexplained ? " was killed (SIGKILL) before it could remove its files"
                                        : " stopped before it had removed all its files") +
            "; its cleanup process removed " + files.removed.c_str() +
            (files.companions > 0 ? " and " + std::to_string(files.companions) +
                                        " of ROMIO's hidden files beside them"
                                  : std::string()) +
            "\n";
  for (const std::string &dir : tracked_trees()) {
    const TreeOutcome t = remove_tree(dir);
    if (t.removed) {
      untrack_created(dir);
      text += "pio-harness: note: " + rank_text() + "'s cleanup process removed " + dir +
              " and the " + std::to_string(t.entries) +
              " entries below it, which the run had made before it stopped\n";
    } else {
      untrack_created(dir); // its owner record stays (tracked until the directory is gone)
      untrack_created(owner_record_path(dir));
      text += "pio-harness: error: " + rank_text() + "'s cleanup process left " + dir + ": " +
              t.refusal + "; its owner record " + owner_record_path(dir) +
              " stays (fix: move out what is yours, then run again with that TestFile, which "
              "removes the rest by the rule in the record)\n";
    }
  }
  Removal records;
  remove_tracked(&records); // the records of the directories now gone
  if (g.results_named.load() && reason >= 0) {
    // A signal's handler marked it already, unless it was killed first; SIGKILL marks nothing.
    const int sig = reason == kStopUnexplained ? SIGKILL : reason;
    if (mark_results_interrupted(signal_name(sig), 128 + sig))
      text += "pio-harness: note: the results " + std::string(g.results_doc) +
              " say \"status\": "
              "\"interrupted\" (" +
              signal_name(sig) + ")\n";
  }
  return text;
}

void start_guardian() {
  GuardState &g = guard_state();
  if (g.guardian_pid.load() != 0)
    return;
  (void)my_owner_record(); // the rank's run id and pid, known to the guardian too
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::close(fds[1]);
    // Out of the rank's session and process group: a terminal's Ctrl-C, timeout's signal to its
    // group and mpiexec's kill of the rank reach the rank, never its guardian.
    ::setsid();
    ::prctl(PR_SET_NAME, "pio-guardian");
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
      ::signal(sig, SIG_DFL);
    ::signal(SIGPIPE, SIG_IGN); // mpiexec gone: its messages are lost, the cleanup is not
    // Standard error stays (its messages; mpiexec waits for it): standard input and output, and
    // every other descriptor (hydra's PMI socket) go, so the rank's death is seen at once.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
    }
    const int fd = ::fcntl(fds[0], F_DUPFD, 3);
    if (fd >= 0 && fd != 3)
      ::dup2(fd, 3);
    ::close_range(4, ~0U, 0);
    guard(3);
  }
  ::close(fds[0]);
  g_pipe = fds[1];
  g.guardian_pid.store(static_cast<int>(pid));
}

void disarm_guardian() noexcept { guard_state().disarmed.store(true); }

int guardian_pid() noexcept { return guard_state().guardian_pid.load(); }

bool guardian_alive() noexcept {
  const int pid = guard_state().guardian_pid.load();
  int status = 0;
  return pid > 0 && ::waitpid(pid, &status, WNOHANG) == 0; // reaps it if it has died
}

bool guardian_request_cleanup() noexcept {
  if (g_pipe < 0 || !guardian_alive())
    return false;
  // No SIGPIPE if it died a moment ago: the write fails instead.
  sigset_t pipe_signal, before;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &before);
  const char go = 1;
  const bool sent = ::write(g_pipe, &go, 1) == 1;
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return sent;
}

bool guardian_wait() noexcept {
  GuardState &g = guard_state();
  const timespec tick{0, 10 * 1000 * 1000};
  while (g.cleanup_done.load() == 0) {
    sigset_t pending;
    if (::sigpending(&pending) == 0 &&
        (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
         sigismember(&pending, SIGHUP) == 1))
      return false; // asked again: stop waiting (the guardian goes on)
    if (!guardian_alive())
      return g.cleanup_done.load() != 0;
    ::nanosleep(&tick, nullptr);
  }
  return true;
}

} // namespace pio::harness
