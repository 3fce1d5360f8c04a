#pragma once
// The hdf5 backend's description (private to the backend; tests link it), exported by
// exports.cpp.

#include "pio/io/backend.hpp"

namespace pio::io {

/// The hdf5 backend: its word, capabilities, its H5* options and factory.
BackendInfo hdf5_info();

} // namespace pio::io
