// Test fixture: a module whose ABI fingerprint says it was built against Open MPI with another
// C++ library, as if loaded into this MPICH harness by mistake. The loader must refuse it, naming
// both fingerprints, before calling pio_modules.
#include "pio/abi.hpp"
#include "pio/version.hpp"

extern "C" __attribute__((visibility("default"))) const int pio_api_version = pio::kApiVersion;
extern "C" __attribute__((visibility("default")))
const pio::AbiFingerprint pio_abi_fingerprint = {"libc++ abi 1", "Open MPI", "4.1.4", 8, 1, 2, 3, 4};
extern "C" __attribute__((visibility("default"))) void *pio_modules() {
  static int called = 0;
  ++called; // must never be reached: the loader checks the fingerprint first
  return nullptr;
}
