// The paths this process created and must remove if it dies (created_paths.hpp): fixed slots in
// the state the guardian shares, so that a signal handler can unlink them and the guardian can
// finish what the rank could not.
#include "guard/created_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <mutex>

#include "guard/guard_state.hpp"

namespace pio::harness {

namespace {

std::mutex g_slots_mutex; // between threads adding and removing; handlers only read

/// getdents64's record (the kernel's struct linux_dirent64).
struct Dirent64 {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

bool starts_with(const char *s, const char *prefix, std::size_t n) noexcept {
  return std::strncmp(s, prefix, n) == 0;
}

void track(const std::string &path, const std::string &only_once_gone, PathKind kind) {
  if (path.size() >= PATH_MAX || only_once_gone.size() >= PATH_MAX)
    return;
  GuardState &g = guard_state();
  if (g.since_ns.load() == 0) {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    // A second of slack: file systems may keep coarser timestamps than the clock.
    g.since_ns.store((static_cast<long long>(ts.tv_sec) - 1) * 1000000000LL);
  }
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < GuardState::kSlots; ++i)
    if (g.kind[i].load() != PathKind::Free && path == g.paths[i])
      return;
  for (int i = 0; i < GuardState::kSlots; ++i)
    if (g.kind[i].load() == PathKind::Free) {
      std::memcpy(g.paths[i], path.c_str(), path.size() + 1);
      std::memcpy(g.unless[i], only_once_gone.c_str(), only_once_gone.size() + 1);
      g.kind[i].store(kind);
      return;
    }
}

bool exists(const char *path) noexcept {
  struct stat st;
  return ::lstat(path, &st) == 0;
}

void note(FixedText &list, int &count, const char *path) noexcept {
  list << (count++ ? ", " : "") << path;
}

} // namespace

FixedText &FixedText::operator<<(const char *s) noexcept {
  constexpr std::size_t room = sizeof text_ - 4; // "..." and the NUL
  while (*s != '\0' && n_ < room)
    text_[n_++] = *s++;
  if (*s != '\0' && n_ == room) {
    std::memcpy(text_ + n_, "...", 3);
    n_ += 3;
  }
  text_[n_] = '\0';
  return *this;
}

FixedText &FixedText::operator<<(long long v) noexcept {
  char digits[24];
  int n = 0;
  unsigned long long u =
      v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u > 0 && n < 22);
  if (v < 0)
    digits[n++] = '-';
  char text[24];
  for (int i = 0; i < n; ++i)
    text[i] = digits[n - 1 - i];
  text[n] = '\0';
  return *this << text;
}

int remove_romio_companions(const char *path, long long since_ns) noexcept {
  // Directory and ".<name>.shfp." in fixed buffers (no allocation in a signal handler).
  char dir[PATH_MAX], prefix[NAME_MAX + 8];
  const char *slash = std::strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  const std::size_t dir_len = slash ? static_cast<std::size_t>(slash - path) : 0;
  const std::size_t name_len = std::strlen(name);
  if (dir_len + 2 > sizeof dir || name_len == 0 || name_len + 8 > sizeof prefix)
    return 0;
  if (slash) {
    std::memcpy(dir, path, dir_len);
    dir[dir_len] = '\0';
    if (dir_len == 0)
      std::memcpy(dir, "/", 2);
  } else {
    std::memcpy(dir, ".", 2);
  }
  prefix[0] = '.';
  std::memcpy(prefix + 1, name, name_len);
  std::memcpy(prefix + 1 + name_len, ".shfp.", 7);
  const std::size_t prefix_len = name_len + 7;
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  int removed = 0;
  alignas(8) char buf[8192];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0)
      break;
    for (long off = 0; off < n;) {
      const auto *e = reinterpret_cast<const Dirent64 *>(buf + off);
      off += e->d_reclen;
      if (!starts_with(e->d_name, prefix, prefix_len))
        continue;
      struct stat st;
      if (::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        continue;
      const long long mtime =
          static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
      if (mtime >= since_ns && ::unlinkat(fd, e->d_name, 0) == 0)
        ++removed;
    }
  }
  ::close(fd);
  return removed;
}

void track_created(const std::string &path, const std::string &only_once_gone) {
  track(path, only_once_gone, PathKind::File);
}

void track_tree(const std::string &path) { track(path, {}, PathKind::Tree); }

void track_joined_tree(const std::string &path) { track(path, {}, PathKind::Joined); }

void untrack_created(const std::string &path) {
  GuardState &g = guard_state();
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < GuardState::kSlots; ++i)
    if (g.kind[i].load() != PathKind::Free && path == g.paths[i])
      g.kind[i].store(PathKind::Free);
}

void remove_tracked(Removal *report) noexcept {
  // Files first, then directories, the last tracked first: a directory the process made and then
  // filled (StageModules' copies) is empty by the time it is removed. Paths kept while another
  // path exists (a claimed directory's owner record, which a later run needs to clean the
  // directory) go last, and only once that path is gone.
  GuardState &g = guard_state();
  Removal ignored;
  Removal &r = report ? *report : ignored;
  const long long since = g.since_ns.load();
  int dirs[GuardState::kSlots];
  int n_dirs = 0;
  for (int i = 0; i < GuardState::kSlots; ++i) {
    const PathKind kind = g.kind[i].load();
    if (kind == PathKind::Joined) {
      note(r.left, r.left_count, g.paths[i]);
      r.left << " (the items this rank made there; the rank that claimed it removes them)";
      continue;
    }
    if (kind == PathKind::Free || g.unless[i][0] != '\0')
      continue;
    r.companions += remove_romio_companions(g.paths[i], since);
    if (kind == PathKind::Tree) {
      dirs[n_dirs++] = i;
    } else if (::unlink(g.paths[i]) == 0) {
      g.kind[i].store(PathKind::Free);
      note(r.removed, r.removed_count, g.paths[i]);
    } else if (errno == ENOENT) {
      g.kind[i].store(PathKind::Free); // gone already
    } else {
      dirs[n_dirs++] = i; // a directory (StageModules')
    }
  }
  for (int k = n_dirs - 1; k >= 0; --k) {
    const int i = dirs[k];
    if (::rmdir(g.paths[i]) == 0) { // a claimed directory: removed only if empty
      g.kind[i].store(PathKind::Free);
      note(r.removed, r.removed_count, g.paths[i]);
    } else if (errno == ENOENT) {
      g.kind[i].store(PathKind::Free);
    } else {
      note(r.left, r.left_count, g.paths[i]);
      if (g.kind[i].load() == PathKind::Tree) {
        ++r.trees_left;
        r.left << " (a directory of items; its owner record keeps the rule to remove them)";
      } else {
        g.kind[i].store(PathKind::Free); // not ours to empty: what is inside it is not the run's
        r.left << " (not empty)";
      }
    }
  }
  for (int i = 0; i < GuardState::kSlots; ++i)
    if (g.kind[i].load() != PathKind::Free && g.unless[i][0] != '\0') {
      if (exists(g.unless[i]))
        continue;
      g.kind[i].store(PathKind::Free);
      if (::unlink(g.paths[i]) == 0 || ::rmdir(g.paths[i]) == 0)
        note(r.removed, r.removed_count, g.paths[i]);
      r.companions += remove_romio_companions(g.paths[i], since);
    }
}

std::vector<std::string> tracked_trees() {
  GuardState &g = guard_state();
  std::vector<std::string> out;
  for (int i = 0; i < GuardState::kSlots; ++i)
    if (g.kind[i].load() == PathKind::Tree)
      out.emplace_back(g.paths[i]);
  return out;
}

} // namespace pio::harness
