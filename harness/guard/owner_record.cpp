#include "guard/owner_record.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include "guard/created_paths.hpp"
#include "guard/record_refresh.hpp"
#include "guard/tree_sweep.hpp"

namespace pio::harness {

namespace {

constexpr const char *kMagic = "pio-bench owner record v1";

std::string read_line_of(const std::string &file) {
  std::ifstream f(file);
  std::string s;
  std::getline(f, s);
  return s;
}

/// A process as /proc/PID/stat shows it.
struct ProcStat {
  char state = '?';     ///< field 3: R, S, D, Z (zombie: dead, not yet reaped), X ...
  long long start = -1; ///< field 22: start time in clock ticks since boot (-1: unknown)
};

ProcStat proc_stat(long pid) {
  ProcStat p;
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  if (paren == std::string::npos)
    return p;
  std::istringstream rest(text.substr(paren + 1));
  std::string field;
  // After the command: state is field 3; starttime is field 22.
  for (int i = 3; i <= 22; ++i) {
    if (!(rest >> field))
      return p;
    if (i == 3)
      p.state = field.empty() ? '?' : field[0];
  }
  try {
    p.start = std::stoll(field);
  } catch (...) {
  }
  return p;
}

long long realtime_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

long long mtime_ns_of(const struct stat &st) {
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

long long ctime_ns_of(const struct stat &st) {
  return static_cast<long long>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
}

/// The birth time of path in ns, 0 where the file system does not record it.
long long btime_ns_of(const std::string &path) {
  struct statx sx {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) != 0 ||
      !(sx.stx_mask & STATX_BTIME))
    return 0;
  return static_cast<long long>(sx.stx_btime.tv_sec) * 1000000000LL + sx.stx_btime.tv_nsec;
}

std::string record_text(const OwnerRecord &r) {
  std::ostringstream text;
  text << kMagic << "\nrun " << r.run_id << "\nhost " << r.host << "\npid " << r.pid << "\nboot "
       << r.boot_id << "\nstart " << r.start << "\nstarted_at " << r.started_at << "\ncreated "
       << r.created_ns << "\n";
  if (r.stamped)
    text << "file " << (r.open ? "open" : "closed") << " " << r.dev << " " << r.ino << " " << r.size
         << " " << r.mtime_ns << " " << r.btime_ns << "\n";
  if (r.refresh_s > 0)
    text << "refresh " << r.refresh_s << "\n";
  for (const auto &t : r.trees) // names are plain (no white space), checked at the claim
    text << "tree " << t.root_name << " " << (t.per_owner ? "per-owner" : "shared") << " "
         << t.owners << " " << t.depth << " " << t.branching << " " << t.dir_prefix << " "
         << t.item_prefix << " " << t.items << " " << t.item_size << "\n";
  return text.str();
}

/// Writes all of s to fd; false on any failure.
bool write_all(int fd, const std::string &s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t w = ::write(fd, s.data() + done, s.size() - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    done += static_cast<std::size_t>(w);
  }
  return true;
}

std::string host_name() {
  char h[256] = {0};
  ::gethostname(h, sizeof h - 1);
  return h;
}

} // namespace

std::string owner_record_path(const std::string &path) { return path + ".pio-owner"; }

const OwnerRecord &my_owner_record() {
  static const OwnerRecord mine = [] {
    OwnerRecord r;
    r.host = host_name();
    r.pid = static_cast<long>(::getpid());
    r.boot_id = read_line_of("/proc/sys/kernel/random/boot_id");
    r.start = proc_stat(r.pid).start;
    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    r.started_at = date;
    std::random_device rd;
    std::ostringstream id;
    id << std::hex << now << "-" << r.pid << "-" << rd();
    r.run_id = id.str();
    return r;
  }();
  return mine;
}

bool write_owner_record(const std::string &path, const TreeRules *trees) {
  OwnerRecord r = my_owner_record();
  r.created_ns = realtime_ns();
  r.refresh_s = kRecordRefreshS; // touched while the run writes the file (record_refresh.hpp)
  if (trees)
    r.trees = *trees;
  const std::string s = record_text(r);
  const int fd = ::open(owner_record_path(path).c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  const bool ok = write_all(fd, s);
  ::close(fd);
  if (!ok)
    ::unlink(owner_record_path(path).c_str());
  return ok;
}

bool stamp_owner_record(const std::string &path, bool open) {
  const std::string rec = owner_record_path(path);
  auto r = read_owner_record(path);
  struct stat st;
  if (!r || r->run_id != my_owner_record().run_id || ::lstat(path.c_str(), &st) != 0)
    return false;
  r->stamped = true;
  r->open = open;
  r->dev = static_cast<unsigned long long>(st.st_dev);
  r->ino = static_cast<unsigned long long>(st.st_ino);
  r->size = static_cast<long long>(st.st_size);
  r->mtime_ns = mtime_ns_of(st);
  r->btime_ns = btime_ns_of(path);
  // A temporary of this process renamed over the record: a death in between leaves the old
  // record (still this run's) and at worst the temporary, which the signal handlers remove.
  const std::string tmp = rec + "." + std::to_string(::getpid()) + ".pio-tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  track_created(tmp);
  const bool ok =
      write_all(fd, record_text(*r)) && ::close(fd) == 0 && ::rename(tmp.c_str(), rec.c_str()) == 0;
  if (!ok)
    ::unlink(tmp.c_str());
  untrack_created(tmp);
  return ok;
}

std::string file_differs(const OwnerRecord &r, const std::string &path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return {};
  const bool dir = S_ISDIR(st.st_mode);
  if (!r.stamped)
    return dir ? std::string()
               : "the record was written before that run made the file, so nothing shows that "
                 "the file now there is the one it made";
  // st_dev names a mount on one node: another node's mount of the same shared file system has
  // a device number of its own (each FUSE or network mount gets an anonymous one), so a record
  // from another host is proved by the inode (and birth time) alone.
  const bool same_host = r.host == my_owner_record().host;
  if ((same_host && static_cast<unsigned long long>(st.st_dev) != r.dev) ||
      static_cast<unsigned long long>(st.st_ino) != r.ino)
    return "the file now there is another one (device " + std::to_string(st.st_dev) + ", inode " +
           std::to_string(st.st_ino) + "; the record says device " + std::to_string(r.dev) +
           ", inode " + std::to_string(r.ino) + ")";
  const long long born = btime_ns_of(path);
  if (r.btime_ns != 0 && born != 0 && born != r.btime_ns)
    return "the file now there is another one made under the same inode number (born at " +
           std::to_string(born) + " ns; the record says born at " + std::to_string(r.btime_ns) +
           " ns)";
  if (!dir && r.open && r.refresh_s > 0 && ctime_ns_of(st) > r.changed_after_ns())
    return "the file was changed after that run was last seen (changed at " +
           std::to_string(ctime_ns_of(st)) + " ns; the run touched its record every " +
           std::to_string(r.refresh_s) + " s while it wrote the file, last at " +
           std::to_string(r.seen_ns) + " ns)";
  if (dir || r.open)
    return {};
  if (static_cast<long long>(st.st_size) != r.size || mtime_ns_of(st) != r.mtime_ns)
    return "the file was changed after that run left it (now " + std::to_string(st.st_size) +
           " bytes, modified at " + std::to_string(mtime_ns_of(st)) + " ns; the record says " +
           std::to_string(r.size) + " bytes, modified at " + std::to_string(r.mtime_ns) + " ns)";
  return {};
}

std::optional<OwnerRecord> read_owner_record(const std::string &path) {
  const std::string rec = owner_record_path(path);
  struct stat st;
  if (::lstat(rec.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 4096)
    return std::nullopt;
  std::ifstream f(rec);
  std::string line;
  if (!std::getline(f, line) || line != kMagic)
    return std::nullopt;
  OwnerRecord r;
  int fields = 0;
  while (std::getline(f, line)) {
    const auto sp = line.find(' ');
    const std::string key = line.substr(0, sp),
                      value = sp == std::string::npos ? "" : line.substr(sp + 1);
    try {
      if (key == "run")
        r.run_id = value, ++fields;
      else if (key == "host")
        r.host = value, ++fields;
      else if (key == "pid")
        r.pid = std::stol(value), ++fields;
      else if (key == "boot")
        r.boot_id = value, ++fields;
      else if (key == "start")
        r.start = std::stoll(value), ++fields;
      else if (key == "started_at")
        r.started_at = value;
      else if (key == "created")
        r.created_ns = std::stoll(value);
      else if (key == "refresh")
        r.refresh_s = std::stoi(value);
      else if (key == "file") {
        std::istringstream words(value);
        std::string state;
        if (!(words >> state >> r.dev >> r.ino >> r.size >> r.mtime_ns) ||
            (state != "open" && state != "closed"))
          return std::nullopt;
        if (!(words >> r.btime_ns)) // records of 0.2 have no birth time
          r.btime_ns = 0;
        r.open = state == "open";
        r.stamped = true;
      } else if (key == "tree") {
        std::istringstream words(value);
        TreeRule t;
        std::string layout;
        if (!(words >> t.root_name >> layout >> t.owners >> t.depth >> t.branching >>
              t.dir_prefix >> t.item_prefix >> t.items >> t.item_size) ||
            (layout != "per-owner" && layout != "shared") || !tree_rule_problem(t).empty())
          return std::nullopt;
        t.per_owner = layout == "per-owner";
        r.trees.push_back(t);
      }
    } catch (...) {
      return std::nullopt;
    }
  }
  if (fields < 5 || r.pid <= 0)
    return std::nullopt;
  r.seen_ns = mtime_ns_of(st);
  return r;
}

OwnerState owner_state(const OwnerRecord &r) {
  const OwnerRecord &me = my_owner_record();
  if (r.host != me.host)
    return OwnerState::Unknown;
  if (!r.boot_id.empty() && !me.boot_id.empty() && r.boot_id != me.boot_id)
    return OwnerState::Gone;
  if (::kill(static_cast<pid_t>(r.pid), 0) != 0 && errno == ESRCH)
    return OwnerState::Gone;
  const ProcStat now = proc_stat(r.pid);
  if (now.start >= 0 && r.start >= 0 && now.start != r.start)
    return OwnerState::Gone; // the pid was reused
  if (now.state == 'Z' || now.state == 'X')
    return OwnerState::Gone; // killed a moment ago, not yet reaped by its parent
  return OwnerState::Alive;
}

long long OwnerRecord::changed_after_ns() const {
  return refresh_s > 0 ? seen_ns + kRecordGraceS * 1000000000LL : 0;
}

std::string describe_owner(const OwnerRecord &r) {
  return "pio-bench run " + r.run_id + " (pid " + std::to_string(r.pid) + " on " + r.host +
         ", started " + r.started_at + ")";
}

} // namespace pio::harness
