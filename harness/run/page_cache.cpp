// The page cache around a phase (page_cache.hpp).
#include "run/page_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include "pio/error.hpp"
#include "pio/memory_fs.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::harness {

namespace {

/// cachestat(2) (Linux 6.5, include/uapi/linux/mman.h): the syscall number is the same on every
/// architecture (the unified table from 403 on); Debian 12's headers predate it.
constexpr long kSysCachestat = 451;
struct CachestatRange {
  std::uint64_t off, len;
};
struct Cachestat {
  std::uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

std::string errno_text(int err) { return std::strerror(err); }

/// A descriptor closed on destruction.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

/// Resident pages of fd's [0, bytes) by mincore over read-only mappings of at most 1 GiB.
std::int64_t mincore_pages(int fd, std::int64_t bytes, const std::string &path) {
  const std::int64_t page = ::sysconf(_SC_PAGESIZE);
  constexpr std::int64_t kWindow = std::int64_t{1} << 30;
  std::int64_t pages = 0;
  std::vector<unsigned char> bits;
  for (std::int64_t off = 0; off < bytes; off += kWindow) {
    const auto len = static_cast<std::size_t>(std::min(kWindow, bytes - off));
    void *map = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(off));
    if (map == MAP_FAILED)
      throw Error("mmap of " + path + " to measure its page cache: " + errno_text(errno));
    bits.assign((len + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page), 0);
    const int rc = ::mincore(map, len, bits.data());
    const int err = errno;
    ::munmap(map, len);
    if (rc != 0)
      throw Error("mincore of " + path + ": " + errno_text(err));
    for (unsigned char b : bits)
      pages += b & 1;
  }
  return pages;
}

} // namespace

FileResidency file_residency(const std::string &path, CacheProbe probe) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOATIME)};
  if (f.fd < 0 && errno == EPERM) // O_NOATIME needs the file's owner
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0)
    throw Error("open(" + path + ") to measure its page cache: " + errno_text(errno));
  FileResidency r;
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    throw Error("fstat of " + path + ": " + errno_text(errno));
  r.bytes = static_cast<std::int64_t>(st.st_size);
  r.memory_file_system = memory_file_system_of_fd(f.fd) != nullptr;
  if (r.bytes == 0)
    return r;
  const std::int64_t page = ::sysconf(_SC_PAGESIZE);
  CachestatRange range{0, static_cast<std::uint64_t>(r.bytes)};
  Cachestat cs{};
  std::int64_t pages = 0;
  if (probe == CacheProbe::Cachestat && ::syscall(kSysCachestat, f.fd, &range, &cs, 0) == 0) {
    pages = static_cast<std::int64_t>(cs.nr_cache);
    r.dirty = std::min(r.bytes, static_cast<std::int64_t>(cs.nr_dirty + cs.nr_writeback) * page);
  } else if (probe == CacheProbe::Mincore || errno == ENOSYS) {
    r.probe = CacheProbe::Mincore;
    pages = mincore_pages(f.fd, r.bytes, path);
  } else {
    throw Error("cachestat of " + path + ": " + errno_text(errno));
  }
  r.resident = std::min(r.bytes, pages * page);
  return r;
}

void drop_file_cache(const std::string &path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0)
    throw Error("open(" + path + ") to drop its page cache: " + errno_text(errno));
  if (::fsync(f.fd) != 0)
    throw Error("fsync of " + path + " before dropping its page cache: " + errno_text(errno));
  if (const int rc = ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
    throw Error("posix_fadvise(" + path + ", DONTNEED): " + errno_text(rc));
}

CacheCheck check_page_cache(MPI_Comm all, const std::string &my_path, bool drop, PhaseAccess access,
                            std::string &error) {
  int rank = 0;
  MPI_Comm_rank(all, &rank);
  Comm node;
  mpi_check(MPI_Comm_split_type(all, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node.out()),
            "MPI_Comm_split_type");
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node.get(), &node_rank);
  MPI_Comm_size(node.get(), &node_size);
  // The node's paths to its leader (lengths, then the text).
  const int len = static_cast<int>(my_path.size());
  std::vector<int> lens(static_cast<std::size_t>(node_size)), at(lens.size());
  mpi_check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, node.get()), "MPI_Gather");
  int total = 0;
  for (std::size_t i = 0; i < lens.size(); ++i) {
    at[i] = total;
    total += lens[i];
  }
  std::string text(static_cast<std::size_t>(node_rank == 0 ? total : 0), '\0');
  mpi_check(MPI_Gatherv(my_path.data(), len, MPI_CHAR, text.data(), lens.data(), at.data(),
                        MPI_CHAR, 0, node.get()),
            "MPI_Gatherv");
  // What each leader measured: bytes, resident, dirty, and flags as numbers for one reduction.
  std::int64_t sums[3] = {0, 0, 0};
  double maxes[4] = {0, 0, 0, 0}; // node fraction, drop seconds, mincore used, memory fs
  if (node_rank == 0) {
    std::set<std::string> paths;
    for (std::size_t i = 0; i < lens.size(); ++i)
      if (lens[i] > 0)
        paths.insert(
            text.substr(static_cast<std::size_t>(at[i]), static_cast<std::size_t>(lens[i])));
    try {
      const double t0 = MPI_Wtime();
      if (drop)
        for (const auto &p : paths)
          drop_file_cache(p);
      maxes[1] = drop ? MPI_Wtime() - t0 : 0;
      for (const auto &p : paths) {
        const FileResidency r = file_residency(p);
        sums[0] += r.bytes;
        sums[1] += r.resident;
        sums[2] += std::max<std::int64_t>(r.dirty, 0);
        maxes[2] = std::max(maxes[2], r.probe == CacheProbe::Mincore ? 1.0 : 0.0);
        maxes[3] = std::max(maxes[3], r.memory_file_system ? 1.0 : 0.0);
      }
      maxes[0] = sums[0] > 0 ? static_cast<double>(sums[1]) / static_cast<double>(sums[0]) : 0;
    } catch (const Error &e) {
      error = e.what();
      if (!e.hint().empty())
        error += " (fix: " + e.hint() + ")";
    }
  }
  std::int64_t got[3] = {0, 0, 0};
  double top[4] = {0, 0, 0, 0};
  mpi_check(MPI_Reduce(sums, got, 3, MPI_INT64_T, MPI_SUM, 0, all), "MPI_Reduce");
  mpi_check(MPI_Reduce(maxes, top, 4, MPI_DOUBLE, MPI_MAX, 0, all), "MPI_Reduce");
  CacheCheck c;
  c.range_bytes = got[0];
  c.resident_bytes = got[1];
  c.max_node_fraction = top[0];
  c.dropped = drop;
  c.drop_time_s = top[1];
  c.probe = top[2] > 0 ? CacheProbe::Mincore : CacheProbe::Cachestat;
  // mincore tells residency, not dirtiness: one node measured with it and the sum is unknown.
  if (access == PhaseAccess::Write && c.probe == CacheProbe::Cachestat)
    c.dirty_bytes = got[2];
  c.memory_file_system = top[3] > 0;
  c.access = access;
  return c;
}

} // namespace pio::harness
