// The paths this process created and must remove if it dies (created_paths.hpp): fixed slots, so
// that a signal handler can unlink them.
#include "guard/created_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>

namespace pio::harness {

namespace {

constexpr int kSlots = 256;
char g_paths[kSlots][PATH_MAX];
char g_unless[kSlots][PATH_MAX]; // "" or a path whose existence keeps g_paths[i]
std::atomic<bool> g_used[kSlots];
std::mutex g_slots_mutex;             // between threads adding and removing; handlers only read
std::atomic<long long> g_since_ns{0}; // when this process first tracked a path

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
} // namespace

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
  if (path.size() >= PATH_MAX || only_once_gone.size() >= PATH_MAX)
    return;
  if (g_since_ns.load() == 0) {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    // A second of slack: file systems may keep coarser timestamps than the clock.
    g_since_ns.store((static_cast<long long>(ts.tv_sec) - 1) * 1000000000LL);
  }
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && path == g_paths[i])
      return;
  for (int i = 0; i < kSlots; ++i)
    if (!g_used[i].load()) {
      std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
      std::memcpy(g_unless[i], only_once_gone.c_str(), only_once_gone.size() + 1);
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
  // Files first, then directories, the last tracked first: a directory the process made and then
  // filled (StageModules' copies) is empty by the time it is removed. Paths kept while another
  // path exists (a claimed directory's owner record, which a later run needs to clean the
  // directory) go last, and only once that path is gone.
  int dirs[kSlots];
  int n_dirs = 0;
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && g_unless[i][0] == '\0') {
      if (::unlink(g_paths[i]) != 0)
        dirs[n_dirs++] = i;
      else
        g_used[i].store(false);
      remove_romio_companions(g_paths[i], g_since_ns.load());
    }
  for (int k = n_dirs - 1; k >= 0; --k) {
    g_used[dirs[k]].store(false);
    ::rmdir(g_paths[dirs[k]]); // a claimed directory: removed only if empty (rmdir is signal-safe)
  }
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && g_unless[i][0] != '\0') {
      struct stat st;
      if (::lstat(g_unless[i], &st) == 0)
        continue;
      g_used[i].store(false);
      if (::unlink(g_paths[i]) != 0)
        ::rmdir(g_paths[i]);
      remove_romio_companions(g_paths[i], g_since_ns.load());
    }
}

} // namespace pio::harness
