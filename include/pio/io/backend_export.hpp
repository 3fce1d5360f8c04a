#pragma once
/// The symbols a backend object exports (pio/io/backend.hpp), as PIO_EXPORT_MODULES makes a
/// module object's: the module API version and the ABI fingerprint, which the loader checks
/// before calling anything, and the list of backends.

#include <vector>

#include "pio/io/backend.hpp"
#include "pio/module.hpp"

/// Name of the exported function returning the object's backends.
#define PIO_BACKENDS_SYMBOL "pio_backends"

/// Exports the API version, the ABI fingerprint and a function returning the given BackendInfo
/// list. Use once per shared object, at namespace scope (an object exports modules or backends,
/// not both):
///   PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{posix_info()})
#define PIO_EXPORT_BACKENDS(...)                                                                   \
  extern "C" __attribute__((visibility("default"))) const int pio_api_version = pio::kApiVersion;  \
  extern "C" __attribute__((visibility("default")))                                                \
  const pio::AbiFingerprint pio_abi_fingerprint = PIO_ABI_FINGERPRINT_INIT;                        \
  extern "C" __attribute__((visibility("default"))) const std::vector<pio::io::BackendInfo>        \
      *pio_backends() {                                                                            \
    static const std::vector<pio::io::BackendInfo> backends = __VA_ARGS__;                         \
    return &backends;                                                                              \
  }
