#include "report/results_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>

#include "pio/error.hpp"
#include "pio/version.hpp"
#include "guard/created_paths.hpp"
#include "report/host_survey.hpp"
#include "report/provenance.hpp"

namespace pio::harness {

std::string file_system_type(const std::string &path) {
  std::string dir = path;
  const auto slash = dir.find_last_of('/');
  dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
  struct statfs st;
  if (::statfs(dir.c_str(), &st) != 0)
    return "unknown";
  static const std::map<unsigned long, const char *> names = {
      {0xEF53, "ext4"},     {0x01021994, "tmpfs"},     {0x58465342, "xfs"},
      {0x6969, "nfs"},      {0x794c7630, "overlayfs"}, {0x0BD00BD0, "lustre"},
      {0x47504653, "gpfs"}, {0x9123683E, "btrfs"},     {0x20030528, "pvfs2"},
      {0x65735546, "fuse"}, {0x00C36400, "ceph"},      {0x73717368, "squashfs"},
      {0x2FC12FC1, "zfs"},  {0xFE534D42, "smb2"},      {0x5346414F, "afs"}};
  auto it = names.find(static_cast<unsigned long>(st.f_type));
  if (it != names.end())
    return it->second;
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(st.f_type));
  return buf;
}

namespace {
/// path made absolute against the working directory (lexically; path need not exist).
std::string absolute_path(const std::string &path) {
  if (!path.empty() && path[0] == '/')
    return path;
  std::vector<char> cwd(4096);
  if (!::getcwd(cwd.data(), cwd.size()))
    return path;
  const std::string dir(cwd.data());
  return path == "." ? dir : dir + "/" + path;
}
} // namespace

void fill_provenance(MPI_Comm comm, const std::vector<std::string> &command_line,
                     const std::string &test_file,
                     const std::map<std::string, std::string> &backend_libraries, RunResult &run,
                     NodePlace *place) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<HostInfo> hosts = survey_hosts(comm, test_file, place);
  if (rank != 0)
    return;
  int len = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  MPI_Get_library_version(lib, &len);
  std::string lib_text(lib);
  while (!lib_text.empty() && (lib_text.back() == '\n' || lib_text.back() == ' '))
    lib_text.pop_back();
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  run.schema_version = kResultsSchemaVersion;
  run.tool_version = kToolVersion;
  run.module_api_version = kApiVersion;
  run.date = date;
  run.command_line = command_line;
  run.mpi_library = lib_text;
  run.mpi_standard = std::to_string(major) + "." + std::to_string(minor);
  run.processes = size;
  run.hosts = std::move(hosts);
  run.test_file = test_file;
  run.test_path = absolute_path(test_file);
  run.working_directory = absolute_path(".");
  run.file_system = file_system_type(test_file);
  // A FUSE file system by its subtype, as mountinfo names it on rank 0's node (fuse.glusterfs).
  if (!run.hosts.empty() && run.hosts.front().file_system.type == "fuse" &&
      !run.hosts.front().file_system.subtype.empty())
    run.file_system = "fuse." + run.hosts.front().file_system.subtype;
  fill_environment(run); // rank 0's: MPI-IO variables, ROMIO_HINTS' file, the batch job
  fill_io_libraries(run, backend_libraries);
}

namespace {
std::string dir_of(const std::string &path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}
} // namespace

ResultsFile::ResultsFile(std::string path, bool overwrite, std::string what, std::string fix)
    : path_(std::move(path)), overwrite_(overwrite), what_(std::move(what)), fix_(std::move(fix)) {
  if (path_.empty() || path_.back() == '/')
    throw Error("the " + what_ + " name '" + path_ + "' names no file", fix_);
  const std::string dir = dir_of(path_);
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Error("the directory of " + what_ + " " + path_ + " does not exist", fix_);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw Error("the directory of " + what_ + " " + path_ +
                    " is not writable: " + std::strerror(errno),
                fix_);
  check_target();
}

void ResultsFile::check_target() const {
  struct stat st;
  if (::lstat(path_.c_str(), &st) != 0)
    return; // a new file
  if (S_ISLNK(st.st_mode))
    throw Error(what_ + " " + path_ + " is a symbolic link; pio-harness never replaces a link",
                fix_);
  if (S_ISDIR(st.st_mode))
    throw Error(what_ + " " + path_ + " is a directory", fix_);
  if (!S_ISREG(st.st_mode))
    throw Error(what_ + " " + path_ + " is not a regular file", fix_);
  const bool mine = ours_ && static_cast<unsigned long long>(st.st_dev) == dev_ &&
                    static_cast<unsigned long long>(st.st_ino) == ino_;
  if (!mine && !overwrite_)
    throw Error(what_ + " " + path_ +
                    " exists and was not written by this run; pio-harness will not replace it",
                "name a new file with ResultsFile / --results, remove it, or allow it with "
                "'Overwrite on' / --overwrite");
}

std::size_t ResultsFile::save(const nlohmann::json &doc) {
  return save_text(doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::size_t ResultsFile::save_text(const std::string &text) {
  check_target();
  // A hidden temporary next to the file, named by this process and created exclusively: it is
  // ours, and never a user's file.
  const std::string dir = dir_of(path_);
  const std::string base = path_.substr(path_.find_last_of('/') + 1);
  const std::string tmp = dir + "/." + base + "." + std::to_string(::getpid()) + "." +
                          std::to_string(++saves_) + ".pio-tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    throw Error("cannot create the temporary " + what_ + " " + tmp + ": " + std::strerror(errno),
                fix_);
  track_created(tmp);
  auto fail = [&](const std::string &what) {
    ::unlink(tmp.c_str());
    untrack_created(tmp);
    throw Error("writing " + what_ + " " + path_ + " failed: " + what,
                "check free space and the file system; " + std::string(fix_));
  };
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      const int e = errno;
      ::close(fd);
      fail(std::strerror(w < 0 ? e : ENOSPC));
    }
    done += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0)
    fail(std::strerror(errno));
  struct stat st;
  if (::stat(tmp.c_str(), &st) != 0)
    fail(std::strerror(errno));
  if (std::rename(tmp.c_str(), path_.c_str()) != 0)
    fail("cannot rename " + tmp + " to " + path_ + ": " + std::strerror(errno));
  untrack_created(tmp);
  ours_ = true;
  dev_ = static_cast<unsigned long long>(st.st_dev);
  ino_ = static_cast<unsigned long long>(st.st_ino);
  return text.size();
}

} // namespace pio::harness
