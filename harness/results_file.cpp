#include "results_file.hpp"

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

void fill_provenance(MPI_Comm comm, const std::vector<std::string> &command_line,
                     const std::string &test_file, RunResult &run) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  char host[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  std::vector<char> all(static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
             0, comm);
  if (rank != 0)
    return;
  std::map<std::string, int> hosts;
  for (int r = 0; r < size; ++r)
    ++hosts[std::string(all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME)];
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
  run.hosts.assign(hosts.begin(), hosts.end());
  run.test_file = test_file;
  run.file_system = file_system_type(test_file);
}

void save_results(const std::string &path, const nlohmann::json &doc) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f)
      throw Error("cannot write results file " + tmp + ": " + std::strerror(errno),
                  "set ResultsFile (or --results) to a writable path");
    f << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!f)
      throw Error("writing results file " + tmp + " failed", "check free space");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno),
                "set ResultsFile (or --results) to a writable path");
}

} // namespace pio::harness
