#pragma once
// The parallel HDF5 interface of the I/O seam (hdf5.cpp), private to pio_io: open_file
// dispatches Interface hdf5 here, library_versions asks it for HDF5's version. Modules see only
// io::OpenFile and io::Interface.

#include <mpi.h>

#include <map>
#include <memory>
#include <string>

#include "pio/io/open_file.hpp"

namespace pio::io {

/// Opens (or creates) the HDF5 file at path on comm through HDF5's MPI-IO driver (hdf5.cpp).
std::unique_ptr<OpenFile> open_hdf5(const Options &o, MPI_Comm comm, const std::string &path,
                                    int amode, const std::map<std::string, std::string> &hints);

/// The HDF5 library's version, "1.10.8" (H5get_libversion).
std::string hdf5_version();

} // namespace pio::io
