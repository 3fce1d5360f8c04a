#pragma once
// The io_uring backend's description (private to the backend; tests link it), exported by
// exports.cpp.

#include "pio/io/backend.hpp"

namespace pio::io {

/// The io_uring backend: its word, capabilities, options (QueueDepth, RegisteredBuffers,
/// RegisteredFiles, SqPoll, ODirect) and factory.
BackendInfo io_uring_info();

} // namespace pio::io
