#include "writeback.hpp"

#include "directories.hpp"

namespace pio::metadata {

namespace {

/// This rank's flush of dir's file system: "" or the failure with its fix.
std::string sync_file_system(io::Backend &b, const std::string &dir) {
  try {
    b.sync(dir.c_str());
  } catch (const Error &e) {
    return "Writeback: " + std::string(e.what()) +
           " (fix: set Writeback off on a file system that cannot be synced; nothing else may "
           "remove the test directory during the run)";
  }
  return "";
}

} // namespace

double write_back(MPI_Comm comm, io::Backend &b, const std::string &dir) {
  const double start = MPI_Wtime();
  raise_agreed(comm, sync_file_system(b, dir));
  MPI_Barrier(comm);
  const double mine = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

} // namespace pio::metadata
