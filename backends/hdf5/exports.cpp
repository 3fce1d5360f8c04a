// The hdf5 backend object's exports (pio/io/backend_export.hpp).
#include "hdf5_backend.hpp"
#include "pio/io/backend_export.hpp"

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{pio::io::hdf5_info()})
