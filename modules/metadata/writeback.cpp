#include "writeback.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "test_dir.hpp"

namespace pio::metadata {

namespace {

/// An open descriptor, closed when it goes out of scope.
class Descriptor {
public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  ~Descriptor() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  int get() const { return fd_; }

private:
  int fd_;
};

/// This rank's syncfs of dir's file system: "" or the failure with its fix.
std::string sync_file_system(const std::string &dir) {
  const Descriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0)
    return "Writeback: open " + dir + ": " + std::strerror(errno) +
           " (fix: nothing else may remove the test directory during the run)";
  if (::syncfs(fd.get()) != 0)
    return "Writeback: syncfs on " + dir + ": " + std::strerror(errno) +
           " (fix: set Writeback off on a file system that cannot be synced)";
  return "";
}

} // namespace

double write_back(MPI_Comm comm, const std::string &dir) {
  const double start = MPI_Wtime();
  raise_agreed(comm, sync_file_system(dir));
  MPI_Barrier(comm);
  const double mine = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

} // namespace pio::metadata
