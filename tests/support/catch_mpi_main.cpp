// Catch2 main for MPI tests: MPI_Init, run the session, reduce the verdict over ranks.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Catch::Session session;
  // Only rank 0 prints the success summary; every rank prints its own failures.
  int rc = session.applyCommandLine(argc, argv);
  if (rc == 0)
    rc = session.run();
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
