// The posix backend object's exports (pio/io/backend_export.hpp).
#include "pio/io/backend_export.hpp"
#include "posix_backend.hpp"

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{pio::io::posix_info()})
