// The io_uring backend object's exports (pio/io/backend_export.hpp).
#include "pio/io/backend_export.hpp"
#include "uring_backend.hpp"

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{pio::io::io_uring_info()})
