#include "pio/patterns/byte_types.hpp"

#include <climits>

namespace pio::patterns {

namespace {
/// An uncommitted contiguous type of `bytes` bytes; caller frees.
MPI_Datatype raw_contiguous(std::int64_t bytes) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (bytes <= INT_MAX) {
    mpi_check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &t), "MPI_Type_contiguous");
    return t;
  }
  // Above 2 GiB: q chunks of 1 GiB followed by r bytes, glued with a struct.
  const std::int64_t chunk = kMaxBytesPerCall;
  MPI_Datatype chunk_t = MPI_DATATYPE_NULL, chunks_t = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_contiguous(static_cast<int>(chunk), MPI_BYTE, &chunk_t),
            "MPI_Type_contiguous");
  mpi_check(MPI_Type_contiguous(static_cast<int>(bytes / chunk), chunk_t, &chunks_t),
            "MPI_Type_contiguous");
  int lens[2] = {1, static_cast<int>(bytes % chunk)};
  MPI_Aint disps[2] = {0, static_cast<MPI_Aint>(bytes / chunk * chunk)};
  MPI_Datatype types[2] = {chunks_t, MPI_BYTE};
  mpi_check(MPI_Type_create_struct(2, lens, disps, types, &t), "MPI_Type_create_struct");
  MPI_Type_free(&chunk_t);
  MPI_Type_free(&chunks_t);
  return t;
}
} // namespace

Datatype contiguous_bytes(std::int64_t bytes) { return Datatype(raw_contiguous(bytes)); }

} // namespace pio::patterns
