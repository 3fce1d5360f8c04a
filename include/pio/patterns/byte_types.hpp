#pragma once
/// MPI datatypes for byte runs of any 64-bit length (MPI counts are int).

#include <cstdint>

#include "pio/mpi_handles.hpp"

namespace pio::patterns {

/// A committed datatype of exactly `bytes` contiguous bytes, valid above 2 GiB.
Datatype contiguous_bytes(std::int64_t bytes);

} // namespace pio::patterns
