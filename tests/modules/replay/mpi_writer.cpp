// A small MPI program whose I/O the replay tests record with strace (test_replay_strace.py):
// every rank writes Count blocks of Block bytes of one shared file, block k of rank r at
// (k * P + r) * Block with MPI_File_write_at, then reads its blocks back, last first.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FILE BLOCK COUNT\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int block = std::atoi(argv[2]), count = std::atoi(argv[3]);
  std::vector<char> buf(static_cast<size_t>(block), static_cast<char>('a' + rank));
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) !=
      MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < count; ++k)
    MPI_File_write_at(fh, static_cast<MPI_Offset>(k * size + rank) * block, buf.data(), block,
                      MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int k = count - 1; k >= 0; --k)
    MPI_File_read_at(fh, static_cast<MPI_Offset>(k * size + rank) * block, buf.data(), block,
                     MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
