// The mpiio backend object's exports (pio/io/backend_export.hpp).
#include "mpiio_backend.hpp"
#include "pio/io/backend_export.hpp"

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{pio::io::mpiio_info()})
