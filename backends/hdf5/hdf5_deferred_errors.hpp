#pragma once
// MPI-IO errors under parallel HDF5, reported after the HDF5 call instead of inside it (private
// to the hdf5 backend, used by hdf5_io.cpp).
//
// HDF5 1.10's MPI-IO driver is not error-safe across ranks: a collective H5Dwrite resets the file
// view (MPI_File_set_view, collective) after MPI_File_write_at_all, but a rank whose write failed
// (ENOSPC on that rank's share) returns at once and skips it, so the other ranks wait in the reset
// for ever; a metadata write that fails on one rank during H5Fclose sends that rank down another
// path of the close's collective steps. Files opened while a DeferMpiIoErrors lives get an MPI
// error handler that records the error and lets the MPI call return success, and a data transfer
// that failed so reports all its bytes done (HDF5 checks the count: the MPI_File_read_at /
// write_at[_all] wrappers of hdf5_transfer_status.cpp, exported by pio-harness); so
// every rank takes the same path through HDF5, and the caller asks take_deferred_error() and
// fails with the real cause, which the harness agrees across ranks as any other error.

#include <mpi.h>

#include <string>

namespace pio::io {

/// While it lives, an MPI file opened on any communicator (HDF5's H5Fcreate / H5Fopen) gets the
/// deferring error handler (it is the default handler of MPI_FILE_NULL, which new files inherit).
class DeferMpiIoErrors {
public:
  DeferMpiIoErrors();
  ~DeferMpiIoErrors();
  DeferMpiIoErrors(const DeferMpiIoErrors &) = delete;
  DeferMpiIoErrors &operator=(const DeferMpiIoErrors &) = delete;

private:
  MPI_Errhandler previous_ = MPI_ERRHANDLER_NULL;
};

/// The first MPI error deferred on fh since the last call, as MPI's text ("" if none); forgets it.
std::string take_deferred_error(MPI_File fh);

/// Forgets what was deferred on fh (the file is closed: its handle may be reused).
void forget_deferred_errors(MPI_File fh);

} // namespace pio::io

/// Told of each deferred error by the backend's handler: pio-harness defines and exports it with
/// the transfer wrappers (hdf5_transfer_status.cpp), which count the errors so; weak, so that the
/// backend also loads into a process without them (a test of its own code).
extern "C" __attribute__((weak, visibility("default"))) void pio_hdf5_error_deferred();
