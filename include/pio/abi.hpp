#pragma once
/// The ABI fingerprint every module and backend object exports and the loader checks before
/// calling anything: an object built with another C++ ABI or against another MPI library (Open MPI
/// into an MPICH harness) is refused with both fingerprints named, instead of crashing.

#include <mpi.h>

namespace pio {

/// Plain C layout, readable whatever the C++ ABI of the module that exported it.
struct AbiFingerprint {
  char compiler[48]; ///< C++ standard library and its ABI, e.g. "libstdc++ cxx11-abi 1 gxx-abi 1017"
  char mpi[32];      ///< MPI library family, e.g. "MPICH" or "Open MPI"
  char mpi_version[32]; ///< the MPI library's version (informational: MPICH keeps its ABI)
  int mpi_handle_size;  ///< sizeof(MPI_Comm): int for MPICH, a pointer for Open MPI
  int module_info_size; ///< sizeof(pio::ModuleInfo)
  int test_spec_size;   ///< sizeof(pio::TestSpec)
  int context_size;     ///< sizeof(pio::ModuleContext) + sizeof(pio::TestContext)
  int results_size;     ///< sizeof(pio::ModuleResult) + sizeof(pio::Figure)
  int backend_info_size; ///< sizeof(pio::io::BackendInfo) + sizeof(pio::io::BackendOption)
};

} // namespace pio

#define PIO_ABI_STR2(x) #x
#define PIO_ABI_STR(x) PIO_ABI_STR2(x)
#if defined(_GLIBCXX_USE_CXX11_ABI) && defined(__GXX_ABI_VERSION)
#define PIO_ABI_COMPILER                                                                           \
  "libstdc++ cxx11-abi " PIO_ABI_STR(_GLIBCXX_USE_CXX11_ABI) " gxx-abi " PIO_ABI_STR(__GXX_ABI_VERSION)
#elif defined(_LIBCPP_ABI_VERSION)
#define PIO_ABI_COMPILER "libc++ abi " PIO_ABI_STR(_LIBCPP_ABI_VERSION)
#else
#define PIO_ABI_COMPILER "unknown C++ library"
#endif
#if defined(MPICH_VERSION)
#define PIO_ABI_MPI "MPICH"
#define PIO_ABI_MPI_VERSION MPICH_VERSION
#elif defined(OMPI_MAJOR_VERSION)
#define PIO_ABI_MPI "Open MPI"
#define PIO_ABI_MPI_VERSION                                                                        \
  PIO_ABI_STR(OMPI_MAJOR_VERSION) "." PIO_ABI_STR(OMPI_MINOR_VERSION) "." PIO_ABI_STR(             \
      OMPI_RELEASE_VERSION)
#else
#define PIO_ABI_MPI "unknown MPI"
#define PIO_ABI_MPI_VERSION "?"
#endif

/// The fingerprint of the code being compiled (an aggregate initializer for AbiFingerprint).
#define PIO_ABI_FINGERPRINT_INIT                                                                   \
  {                                                                                                \
    PIO_ABI_COMPILER, PIO_ABI_MPI, PIO_ABI_MPI_VERSION, static_cast<int>(sizeof(MPI_Comm)),        \
        static_cast<int>(sizeof(pio::ModuleInfo)), static_cast<int>(sizeof(pio::TestSpec)),        \
        static_cast<int>(sizeof(pio::ModuleContext) + sizeof(pio::TestContext)),                   \
        static_cast<int>(sizeof(pio::ModuleResult) + sizeof(pio::Figure)),                         \
        static_cast<int>(sizeof(pio::io::BackendInfo) + sizeof(pio::io::BackendOption))            \
  }
