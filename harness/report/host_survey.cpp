#include "report/host_survey.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "pio/mpi_handles.hpp"
#include "report/mount_survey.hpp"
#include "report/node_conditions.hpp"

namespace pio::harness {

namespace {

/// The value after "key:" (or "key=") on the first line of file that starts with key.
std::string field_of(const char *file, const std::string &key, char sep) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) {
      auto p = line.find(sep);
      if (p == std::string::npos)
        continue;
      std::string v = line.substr(p + 1);
      v.erase(0, v.find_first_not_of(" \t\""));
      while (!v.empty() && (v.back() == '"' || v.back() == ' '))
        v.pop_back();
      return v;
    }
  return {};
}

/// This node as seen from here, with the file system of test_file's directory; ranks are
/// filled in by the caller.
HostInfo this_host(const std::string &test_file) {
  HostInfo h;
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  h.name = name;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  h.memory_bytes = pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
  h.cpus = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  h.cpu_model = field_of("/proc/cpuinfo", "model name", ':');
  struct utsname u;
  if (::uname(&u) == 0)
    h.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  h.os = field_of("/etc/os-release", "PRETTY_NAME", '=');
  h.file_system = file_system_of(test_file);
  return h;
}

/// A number as text that reads back to the same double.
std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

/// A field with its backslashes, tabs and newlines escaped, so records are tab-separated lines.
std::string escaped(const std::string &v) {
  std::string out;
  for (char c : v)
    out += c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : std::string(1, c);
  return out;
}

std::string unescaped(const std::string &v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == '\\' && i + 1 < v.size()) {
      const char c = v[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    } else {
      out += v[i];
    }
  return out;
}

/// One record as a line of tab-separated, escaped fields.
std::string encode(const HostInfo &h) {
  std::ostringstream ranks;
  for (size_t i = 0; i < h.ranks.size(); ++i)
    ranks << (i ? "," : "") << h.ranks[i];
  const FileSystemInfo &fs = h.file_system;
  const NodeConditions &c = h.conditions;
  const std::string fields[] = {h.name,
                                std::to_string(h.memory_bytes),
                                std::to_string(h.cpus),
                                h.cpu_model,
                                h.kernel,
                                h.os,
                                ranks.str(),
                                fs.type,
                                fs.subtype,
                                fs.mount_point,
                                fs.source,
                                fs.mount_options,
                                fs.super_options,
                                fs.loop_backing_file,
                                fs.loop_direct_io ? "1" : "0",
                                volfile_text(fs.volume_graph),
                                fs.client_command_line,
                                std::to_string(c.usable_cores),
                                c.cpus_allowed,
                                number(c.cpu_quota),
                                number(c.load_1m),
                                number(c.load_5m),
                                number(c.load_15m),
                                c.governor,
                                c.free_page_reporting ? (*c.free_page_reporting ? "1" : "0") : "-",
                                number(c.memory_copy_MiBps),
                                c.cpu_pressure ? "1" : "0",
                                std::to_string(c.rank_cpus)};
  std::string line;
  for (const auto &f : fields)
    line += escaped(f) + (&f == &fields[std::size(fields) - 1] ? "\n" : "\t");
  return line;
}

std::vector<HostInfo> decode(const std::string &text) {
  std::vector<HostInfo> hosts;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string one; std::getline(fields, one, '\t');)
      f.push_back(unescaped(one));
    f.resize(28);
    HostInfo h;
    h.name = f[0];
    h.memory_bytes = std::stoll(f[1]);
    h.cpus = std::stoi(f[2]);
    h.cpu_model = f[3];
    h.kernel = f[4];
    h.os = f[5];
    std::istringstream r(f[6]);
    for (std::string one; std::getline(r, one, ',');)
      h.ranks.push_back(std::stoi(one));
    FileSystemInfo &fs = h.file_system;
    fs.type = f[7];
    fs.subtype = f[8];
    fs.mount_point = f[9];
    fs.source = f[10];
    fs.mount_options = f[11];
    fs.super_options = f[12];
    fs.loop_backing_file = f[13];
    fs.loop_direct_io = f[14] == "1";
    fs.volume_graph = parse_volfile(f[15]);
    fs.client_command_line = f[16];
    NodeConditions &c = h.conditions;
    c.usable_cores = std::stoi(f[17]);
    c.cpus_allowed = f[18];
    c.cpu_quota = std::stod(f[19]);
    c.load_1m = std::stod(f[20]);
    c.load_5m = std::stod(f[21]);
    c.load_15m = std::stod(f[22]);
    c.governor = f[23];
    if (f[24] != "-")
      c.free_page_reporting = f[24] == "1";
    c.memory_copy_MiBps = std::stod(f[25]);
    c.cpu_pressure = f[26] == "1";
    c.rank_cpus = f[27].empty() ? 0 : std::stoi(f[27]);
    hosts.push_back(std::move(h));
  }
  return hosts;
}

} // namespace

std::vector<HostInfo> survey_hosts(MPI_Comm comm, const std::string &test_file, NodePlace *place) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm raw = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &raw),
            "MPI_Comm_split_type");
  Comm node(raw);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node.get(), &node_rank);
  MPI_Comm_size(node.get(), &node_size);
  std::vector<int> ranks(static_cast<size_t>(node_size));
  mpi_check(MPI_Gather(&rank, 1, MPI_INT, ranks.data(), 1, MPI_INT, 0, node.get()), "MPI_Gather");
  const NodeConditions conditions = measure_node_conditions(node.get());
  if (place) {
    place->leader = node_rank == 0;
    place->conditions = conditions;
  }
  // Leaders (each node's lowest rank; rank 0 is one) send their record to rank 0.
  raw = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &raw), "MPI_Comm_split");
  if (node_rank != 0)
    return {};
  Comm leaders(raw);
  HostInfo h = this_host(test_file);
  h.ranks = ranks;
  h.conditions = conditions;
  const std::string mine = encode(h);
  int leader_rank = 0, leader_count = 1;
  MPI_Comm_rank(leaders.get(), &leader_rank);
  MPI_Comm_size(leaders.get(), &leader_count);
  const int n = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<size_t>(leader_count)), displs(sizes.size());
  mpi_check(MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, leaders.get()), "MPI_Gather");
  int total = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    displs[i] = total;
    total += sizes[i];
  }
  std::string all(static_cast<size_t>(leader_rank == 0 ? total : 0), '\0');
  mpi_check(MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), displs.data(), MPI_CHAR,
                        0, leaders.get()),
            "MPI_Gatherv");
  return leader_rank == 0 ? decode(all) : std::vector<HostInfo>{};
}

} // namespace pio::harness
