#pragma once
// The mpiio backend's description (private to the backend; tests link it): MPI-IO (ROMIO here)
// over one MPI_File per file, exported by exports.cpp.

#include "pio/io/backend.hpp"

namespace pio::io {

/// The mpiio backend: its word, capabilities, options (none) and factory.
BackendInfo mpiio_info();

} // namespace pio::io
