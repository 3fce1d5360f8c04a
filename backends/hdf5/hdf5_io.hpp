#pragma once
// The hdf5 backend's files (hdf5_io.cpp; private to the backend, tests link it): one 1-D byte
// dataset per file through HDF5's MPI-IO driver.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "pio/io/open_file.hpp"

namespace pio::io {

/// The hdf5 backend's options (its block directives), as values.
struct Hdf5Options {
  std::int64_t alignment = 0;       ///< H5Alignment: H5Pset_alignment(1, this); 0 = HDF5's
  std::int64_t chunk_size = 0;      ///< H5ChunkSize: chunked dataset, bytes; 0 = contiguous
  bool collective_metadata = false; ///< H5CollectiveMetadata: collective metadata operations
  std::int64_t meta_block_size = 0; ///< H5MetaBlockSize: H5Pset_meta_block_size; 0 = HDF5's
};

/// Opens (or creates) the HDF5 file at path on comm through HDF5's MPI-IO driver.
std::unique_ptr<OpenFile> open_hdf5(const Hdf5Options &o, MPI_Comm comm, const std::string &path,
                                    int amode, const std::map<std::string, std::string> &hints);

/// The HDF5 library's version, "1.10.8" (H5get_libversion).
std::string hdf5_version();

} // namespace pio::io
