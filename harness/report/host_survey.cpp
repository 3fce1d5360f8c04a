#include "report/host_survey.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pio/mpi_handles.hpp"
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

/// This node as seen from here; ranks are filled in by the caller.
HostInfo this_host() {
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
  return h;
}

/// One record as tab-separated text (names and models hold no tabs or newlines).
std::string encode(const HostInfo &h) {
  std::ostringstream s;
  const NodeConditions &c = h.conditions;
  s.precision(17);
  s << h.name << '\t' << h.memory_bytes << '\t' << h.cpus << '\t' << h.cpu_model << '\t' << h.kernel
    << '\t' << h.os << '\t' << c.usable_cores << '\t'
    << (c.cpus_allowed.empty() ? "-" : c.cpus_allowed) << '\t' << c.cpu_quota << '\t' << c.load_1m
    << '\t' << c.load_5m << '\t' << c.load_15m << '\t' << (c.governor.empty() ? "-" : c.governor)
    << '\t' << (c.free_page_reporting ? (*c.free_page_reporting ? "1" : "0") : "-") << '\t'
    << c.memory_copy_MiBps << '\t' << (c.cpu_pressure ? 1 : 0) << '\t';
  for (size_t i = 0; i < h.ranks.size(); ++i)
    s << (i ? "," : "") << h.ranks[i];
  s << '\n';
  return s.str();
}

std::vector<HostInfo> decode(const std::string &text) {
  std::vector<HostInfo> hosts;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::istringstream f(line);
    HostInfo h;
    std::string mem, cpus, ranks;
    std::getline(f, h.name, '\t');
    std::getline(f, mem, '\t');
    std::getline(f, cpus, '\t');
    std::getline(f, h.cpu_model, '\t');
    std::getline(f, h.kernel, '\t');
    std::getline(f, h.os, '\t');
    NodeConditions &c = h.conditions;
    std::string usable, cpus_allowed, quota, l1, l5, l15, governor, reporting, copy, pressure;
    for (std::string *field :
         {&usable, &cpus_allowed, &quota, &l1, &l5, &l15, &governor, &reporting, &copy, &pressure})
      std::getline(f, *field, '\t');
    std::getline(f, ranks);
    c.usable_cores = std::stoi(usable);
    c.cpus_allowed = cpus_allowed == "-" ? "" : cpus_allowed;
    c.cpu_quota = std::stod(quota);
    c.load_1m = std::stod(l1);
    c.load_5m = std::stod(l5);
    c.load_15m = std::stod(l15);
    c.governor = governor == "-" ? "" : governor;
    if (reporting != "-")
      c.free_page_reporting = reporting == "1";
    c.memory_copy_MiBps = std::stod(copy);
    c.cpu_pressure = pressure == "1";
    h.memory_bytes = std::stoll(mem);
    h.cpus = std::stoi(cpus);
    std::istringstream r(ranks);
    std::string one;
    while (std::getline(r, one, ','))
      h.ranks.push_back(std::stoi(one));
    hosts.push_back(std::move(h));
  }
  return hosts;
}

} // namespace

std::vector<HostInfo> survey_hosts(MPI_Comm comm, NodePlace *place) {
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
  HostInfo h = this_host();
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
