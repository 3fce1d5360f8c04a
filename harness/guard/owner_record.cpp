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

namespace pio::harness {

namespace {

constexpr const char *kMagic = "pio-bench owner record v1";

std::string read_line_of(const std::string &file) {
  std::ifstream f(file);
  std::string s;
  std::getline(f, s);
  return s;
}

/// Field 22 (starttime) of /proc/PID/stat, or -1.
long long start_ticks(long pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  if (paren == std::string::npos)
    return -1;
  std::istringstream rest(text.substr(paren + 1));
  std::string field;
  // After the command: state is field 3; starttime is field 22.
  for (int i = 3; i <= 22; ++i)
    if (!(rest >> field))
      return -1;
  try {
    return std::stoll(field);
  } catch (...) {
    return -1;
  }
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
    r.start = start_ticks(r.pid);
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

bool write_owner_record(const std::string &path) {
  const OwnerRecord &r = my_owner_record();
  std::ostringstream text;
  text << kMagic << "\nrun " << r.run_id << "\nhost " << r.host << "\npid " << r.pid << "\nboot "
       << r.boot_id << "\nstart " << r.start << "\nstarted_at " << r.started_at << "\n";
  const std::string s = text.str();
  const int fd = ::open(owner_record_path(path).c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  const bool ok = ::write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size());
  ::close(fd);
  if (!ok)
    ::unlink(owner_record_path(path).c_str());
  return ok;
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
    } catch (...) {
      return std::nullopt;
    }
  }
  if (fields < 5 || r.pid <= 0)
    return std::nullopt;
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
  const long long now_start = start_ticks(r.pid);
  if (now_start >= 0 && r.start >= 0 && now_start != r.start)
    return OwnerState::Gone; // the pid was reused
  return OwnerState::Alive;
}

std::string describe_owner(const OwnerRecord &r) {
  return "pio-bench run " + r.run_id + " (pid " + std::to_string(r.pid) + " on " + r.host +
         ", started " + r.started_at + ")";
}

} // namespace pio::harness
