// MPI-IO errors under parallel HDF5, deferred to the caller (hdf5_deferred_errors.hpp).
#include "hdf5_deferred_errors.hpp"

#include <map>

namespace pio::io {

namespace {

/// The first error of each file since it was last asked (one thread: the rank's main thread).
std::map<MPI_File, std::string> &deferred() {
  static std::map<MPI_File, std::string> errors;
  return errors;
}

/// MPI's error handler of the files HDF5 opens: keep the first error, return success. A failed
/// MPI_File_open (the handle is MPI_FILE_NULL) is not deferred: ROMIO agrees on it across ranks
/// and HDF5 must not go on with no file.
void defer(MPI_File *fh, int *code, ...) {
  if (fh == nullptr || *fh == MPI_FILE_NULL || code == nullptr || *code == MPI_SUCCESS)
    return;
  std::string &first = deferred()[*fh];
  if (first.empty()) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(*code, text, &len);
    first.assign(text, static_cast<std::size_t>(len));
    for (char &c : first) // one line: MPICH's error stacks have several
      if (c == '\n')
        c = ' ';
    if (first.empty())
      first = "MPI error " + std::to_string(*code);
  }
  if (pio_hdf5_error_deferred != nullptr) // the harness's transfer wrappers count it
    pio_hdf5_error_deferred();
  *code = MPI_SUCCESS;
}

} // namespace

// A handler of its own for each file: MPICH 4.0's ROMIO releases the handler a file inherited
// when the file is closed, so one handler shared by every file would be freed with the first.
DeferMpiIoErrors::DeferMpiIoErrors() {
  MPI_File_get_errhandler(MPI_FILE_NULL, &previous_);
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  MPI_File_create_errhandler(defer, &handler);
  MPI_File_set_errhandler(MPI_FILE_NULL, handler);
}

DeferMpiIoErrors::~DeferMpiIoErrors() {
  if (previous_ != MPI_ERRHANDLER_NULL) // MPI_ERRORS_RETURN unless someone changed it
    MPI_File_set_errhandler(MPI_FILE_NULL, previous_);
}

std::string take_deferred_error(MPI_File fh) {
  const auto it = deferred().find(fh);
  if (it == deferred().end())
    return {};
  std::string text = std::move(it->second);
  deferred().erase(it);
  return text;
}

void forget_deferred_errors(MPI_File fh) { deferred().erase(fh); }

} // namespace pio::io
