// A node's conditions at the run's start and its counters during a test (node_conditions.hpp).
#include "report/node_conditions.hpp"

#include <dirent.h>
#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pio/mpi_handles.hpp"

namespace pio::harness {

namespace {

/// The first line of a file ("" if unreadable).
std::string first_line(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// The affinity mask as a cpu list: "0-1,4".
std::string cpu_list(const cpu_set_t &set) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set))
      continue;
    int end = c;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
      ++end;
    out +=
        (out.empty() ? "" : ",") + std::to_string(c) + (end > c ? "-" + std::to_string(end) : "");
    c = end;
  }
  return out;
}

/// The smallest CPU quota on the way from this process's cgroup to the root: cgroup v2's
/// cpu.max, or v1's cpu.cfs_quota_us / cpu.cfs_period_us (0: none).
double cgroup_quota() {
  std::ifstream in("/proc/self/cgroup");
  std::string line, v2, v1;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) == 0)
      v2 = line.substr(3);
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos)
      continue;
    std::istringstream controllers(line.substr(a + 1, b - a - 1));
    std::string c;
    while (std::getline(controllers, c, ','))
      if (c == "cpu")
        v1 = line.substr(b + 1);
  }
  double best = 0;
  auto take = [&](double q) {
    if (q > 0 && (best == 0 || q < best))
      best = q;
  };
  for (std::string path = v2;; path = path.substr(0, path.find_last_of('/'))) {
    take(cpu_quota_of(first_line("/sys/fs/cgroup" + path + "/cpu.max")));
    if (path.empty() || path == "/")
      break;
  }
  for (std::string path = v1;; path = path.substr(0, path.find_last_of('/'))) {
    const std::string dir = "/sys/fs/cgroup/cpu" + path;
    const std::string quota = first_line(dir + "/cpu.cfs_quota_us");
    if (!quota.empty() && quota != "-1")
      take(cpu_quota_of(quota + " " + first_line(dir + "/cpu.cfs_period_us")));
    if (path.empty() || path == "/")
      break;
  }
  return best;
}

/// Whether the node's virtio balloon reports free pages (unset: no balloon device).
std::optional<bool> free_page_reporting() {
  const std::string base = "/sys/bus/virtio/devices";
  DIR *dir = ::opendir(base.c_str());
  if (!dir)
    return std::nullopt;
  std::optional<bool> found;
  while (dirent *e = ::readdir(dir)) {
    if (e->d_name[0] == '.')
      continue;
    const std::string dev = base + "/" + e->d_name;
    if (first_line(dev + "/device") == "0x0005") // VIRTIO_ID_BALLOON
      found = balloon_reports_free_pages(first_line(dev + "/features"));
  }
  ::closedir(dir);
  return found;
}

/// The node's copy rate with every rank of `node` copying at once: the best of a few rounds of
/// bytes over all ranks / the slowest rank's time (MiB/s), each round after a barrier.
double copy_rate(MPI_Comm node) {
  constexpr std::size_t kBytes = 16u << 20; // above a last-level cache, short to copy
  std::vector<char> from(kBytes, 1), to(kBytes, 0);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  double best = 0;
  volatile char sink = 0;
  for (int round = 0; round < 5; ++round) {
    MPI_Barrier(node);
    const double t0 = MPI_Wtime();
    std::memcpy(to.data(), from.data(), kBytes);
    sink = static_cast<char>(sink + to[static_cast<std::size_t>(round) * 4096]);
    const double mine = MPI_Wtime() - t0;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, node);
    if (slowest > 0)
      best = std::max(best, static_cast<double>(kBytes) * ranks / (1 << 20) / slowest);
  }
  return best;
}

} // namespace

int cpu_list_count(const std::string &list) {
  int n = 0;
  std::istringstream in(list);
  std::string part;
  while (std::getline(in, part, ',')) {
    const auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        std::stoi(part);
        ++n;
      } else {
        n += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
      }
    } catch (const std::exception &) {
      return 0;
    }
  }
  return n;
}

double cpu_quota_of(const std::string &cpu_max) {
  std::istringstream in(cpu_max);
  std::string quota, period;
  in >> quota >> period;
  if (quota.empty() || quota == "max")
    return 0;
  try {
    const double p = period.empty() ? 100000 : std::stod(period);
    return p > 0 ? std::stod(quota) / p : 0;
  } catch (const std::exception &) {
    return 0;
  }
}

bool balloon_reports_free_pages(const std::string &features) {
  return features.size() > 5 && features[5] == '1';
}

NodeConditions measure_node_conditions(MPI_Comm node) {
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  cpu_set_t mine, all;
  CPU_ZERO(&mine);
  CPU_ZERO(&all);
  if (::sched_getaffinity(0, sizeof mine, &mine) != 0)
    CPU_ZERO(&mine);
  mpi_check(
      MPI_Reduce(&mine, &all, static_cast<int>(sizeof mine), MPI_UNSIGNED_CHAR, MPI_BOR, 0, node),
      "MPI_Reduce");
  const int my_cpus = CPU_COUNT(&mine);
  int most_cpus = 0;
  mpi_check(MPI_Reduce(&my_cpus, &most_cpus, 1, MPI_INT, MPI_MAX, 0, node), "MPI_Reduce");
  NodeConditions c;
  // Before the copy, which loads the CPUs: the load as the run found it.
  if (node_rank == 0) {
    std::istringstream load(first_line("/proc/loadavg"));
    load >> c.load_1m >> c.load_5m >> c.load_15m;
  }
  c.memory_copy_MiBps = copy_rate(node);
  if (node_rank != 0)
    return c;
  c.cpus_allowed = cpu_list(all);
  c.rank_cpus = most_cpus;
  c.usable_cores = CPU_COUNT(&all);
  c.cpu_quota = cgroup_quota();
  if (c.cpu_quota > 0 && c.cpu_quota < c.usable_cores)
    c.usable_cores = std::max(1, static_cast<int>(std::floor(c.cpu_quota + 1e-9)));
  c.governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  c.free_page_reporting = free_page_reporting();
  c.cpu_pressure = sample_node().cpu_some_us >= 0;
  return c;
}

NodeSample sample_node() {
  NodeSample s;
  s.wall_s = MPI_Wtime();
  {
    std::ifstream in("/proc/pressure/cpu");
    std::string word;
    while (in >> word)
      if (word.rfind("total=", 0) == 0) { // the "some" line comes first
        try {
          s.cpu_some_us = std::stod(word.substr(6));
        } catch (const std::exception &) {
        }
        break;
      }
  }
  std::ifstream vm("/proc/vmstat");
  std::string key;
  std::int64_t value = 0, swapped = 0;
  int seen = 0;
  while (vm >> key >> value)
    if (key == "pswpin" || key == "pswpout") {
      swapped += value;
      ++seen;
    }
  if (seen > 0)
    s.swapped_pages = swapped;
  return s;
}

double own_run_delay_us() {
  std::ifstream own("/proc/thread-self/schedstat");
  std::string line;
  if (!std::getline(own, line))
    return -1;
  const double ns = run_delay_ns_of(line);
  return ns < 0 ? -1 : ns / 1e3;
}

double run_delay_ns_of(const std::string &schedstat) {
  std::istringstream in(schedstat);
  double on_cpu = 0, delay = 0, slices = 0;
  if (!(in >> on_cpu >> delay >> slices) || delay < 0)
    return -1;
  return delay;
}

} // namespace pio::harness
