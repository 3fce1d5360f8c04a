#pragma once
/// A test's file opened through the block's I/O interface: what the harness holds between its
/// open and its close (both timed and reported as the test's open and close times) and what it
/// hands the module (TestContext::io). The harness claims the path first (never-overwrite,
/// owner record) and deletes it after the test.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "pio/io/interface.hpp"
#include "pio/io/options.hpp"

namespace pio::io {

/// One open file and the interface its transfers go through.
class OpenFile {
public:
  /// Closes the file if close() was not called, without throwing.
  virtual ~OpenFile() = default;
  /// The interface the module transfers through.
  virtual Interface &io() = 0;
  /// The MPI file under MPI-IO (for views, seeks, sync); MPI_FILE_NULL for another interface.
  virtual MPI_File mpi_file() const { return MPI_FILE_NULL; }
  /// The MPI-IO hints in effect (MPI_File_get_info; HDF5: of its MPI-IO driver's file);
  /// empty for POSIX.
  virtual std::map<std::string, std::string> hints_in_effect() const = 0;
  /// Closes the file, throwing on error (collective for MPI-IO and HDF5).
  virtual void close() = 0;
};

/// Opens path through o's interface on comm (the file's ranks: the test group for a shared
/// file, MPI_COMM_SELF for a file per process) with MPI-IO's amode and MPI-IO hints (POSIX
/// takes none). Collective over comm for MPI-IO and HDF5. Throws pio::Error naming the call and
/// path.
std::unique_ptr<OpenFile> open_file(const Options &o, MPI_Comm comm, const std::string &path,
                                    int amode, const std::map<std::string, std::string> &hints);

/// The I/O libraries in use and their versions, e.g. {"hdf5", "1.10.8"}, {"mpi", "..."}, for
/// the results' provenance.
std::map<std::string, std::string> library_versions();

} // namespace pio::io
