#pragma once
// The posix backend's description (private to the backend; tests link it), exported by
// exports.cpp.

#include "pio/io/backend.hpp"

namespace pio::io {

/// The posix backend: its word, capabilities, its option ODirect and factory.
BackendInfo posix_info();

} // namespace pio::io
