// The reference for tools/bench-overhead.sh: a minimal hand-written MPI-IO loop doing what
// pio-harness does for simple_strided with stride = strip x processes (DESIGN / issue 2 speed
// target): per unit a barrier, one MPI_File_write_at (or read_at) of BUFFER bytes at
// (unit * nprocs + rank) * BUFFER, a barrier; the file opened once per repetition.
// Usage: hand_io write|read|barriers PATH BUFFER UNITS REPS [barrier|allreduce]
// The sync points are MPI_Barrier, or (allreduce, as the harness does: its barriers carry a
// one-int error flag) a one-int MPI_Allreduce.
// Prints: best-of-reps bandwidth in MiB/s (or µs per unit for "barriers") on rank 0.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 6 && argc != 7) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: hand_io write|read|barriers PATH BUFFER UNITS REPS [barrier|allreduce]\n");
    MPI_Finalize();
    return 2;
  }
  const std::string mode = argv[1];
  const char *path = argv[2];
  const long long buffer = std::atoll(argv[3]);
  const long long units = std::atoll(argv[4]);
  const int reps = std::atoi(argv[5]);
  const bool allreduce = argc == 7 && std::string(argv[6]) == "allreduce";
  auto sync = [&] {
    if (allreduce) {
      int in = 0, out = 0;
      MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  };
  std::vector<char> buf(static_cast<size_t>(buffer), static_cast<char>(rank + 1));
  double best = 0;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_File fh = MPI_FILE_NULL;
    if (mode != "barriers")
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    double total = 0;
    for (long long u = 0; u < units; ++u) {
      const MPI_Offset off = (u * size + rank) * buffer;
      sync();
      const double t0 = MPI_Wtime();
      if (mode == "write")
        MPI_File_write_at(fh, off, buf.data(), static_cast<int>(buffer), MPI_BYTE,
                          MPI_STATUS_IGNORE);
      else if (mode == "read")
        MPI_File_read_at(fh, off, buf.data(), static_cast<int>(buffer), MPI_BYTE,
                         MPI_STATUS_IGNORE);
      sync();
      total += MPI_Wtime() - t0;
    }
    if (fh != MPI_FILE_NULL)
      MPI_File_close(&fh);
    const double value = mode == "barriers"
                             ? total / static_cast<double>(units) * 1e6
                             : static_cast<double>(buffer) * size * units / 1048576.0 / total;
    if (rep == 0 || (mode == "barriers" ? value < best : value > best))
      best = value;
  }
  if (rank == 0)
    std::printf("%.3f\n", best);
  MPI_Finalize();
  return 0;
}
