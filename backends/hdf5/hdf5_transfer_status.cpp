// The transfers HDF5's MPI-IO driver makes, through the MPI profiling interface (MPI-4.0
// §15.2): when the call's error was deferred (hdf5_deferred_errors.hpp), its status says every
// byte moved, as HDF5 1.10 checks the count after the call (H5FD_mpio_write: "file write
// failed") and a rank that fails there leaves the others in the next collective step. Linked
// into pio-harness alone, which exports these symbols so that libhdf5's calls bind to them;
// every other caller sees MPI's own behaviour (one counter read before and after).
#include <mpi.h>

#include <atomic>

namespace {

/// Errors the hdf5 backend deferred so far, on any file (compared around each transfer).
std::atomic<unsigned long> g_deferred{0};

unsigned long deferred_error_count() noexcept { return g_deferred.load(std::memory_order_relaxed); }

/// The status of a deferred failure: count items of datatype moved (MPI counts the bytes).
int settled(unsigned long before, int rc, MPI_Status *status, MPI_Datatype datatype, int count) {
  if (deferred_error_count() == before || status == MPI_STATUS_IGNORE)
    return rc;
  MPI_Count size = 0;
  MPI_Type_size_x(datatype, &size);
  MPI_Status_set_elements_x(status, MPI_BYTE, size * count);
  return rc;
}

} // namespace

extern "C" void pio_hdf5_error_deferred() { g_deferred.fetch_add(1, std::memory_order_relaxed); }

extern "C" int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype, MPI_Status *status) {
  const unsigned long before = deferred_error_count();
  return settled(before, PMPI_File_write_at(fh, offset, buf, count, datatype, status), status,
                 datatype, count);
}

extern "C" int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status) {
  const unsigned long before = deferred_error_count();
  return settled(before, PMPI_File_write_at_all(fh, offset, buf, count, datatype, status), status,
                 datatype, count);
}

extern "C" int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype, MPI_Status *status) {
  const unsigned long before = deferred_error_count();
  return settled(before, PMPI_File_read_at(fh, offset, buf, count, datatype, status), status,
                 datatype, count);
}

extern "C" int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                    MPI_Datatype datatype, MPI_Status *status) {
  const unsigned long before = deferred_error_count();
  return settled(before, PMPI_File_read_at_all(fh, offset, buf, count, datatype, status), status,
                 datatype, count);
}
