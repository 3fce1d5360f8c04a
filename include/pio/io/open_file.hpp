#pragma once
/// A file opened through a backend (Backend::open, pio/io/backend.hpp): the harness holds one
/// per test between its open and its close (both timed and reported as the test's open and
/// close times) and hands the module its io() (TestContext::io); a module opens its own (an
/// item of the metadata family, IMB-IO's Open_Close) the same way.

#include <map>
#include <string>

#include "pio/io/interface.hpp"

namespace pio::io {

/// One open file and the interface its transfers go through.
class OpenFile {
public:
  /// Closes the file if close() was not called, without throwing.
  virtual ~OpenFile() = default;
  /// The interface transfers on this file go through.
  virtual Interface &io() = 0;
  /// The MPI-IO hints in effect (MPI_File_get_info; HDF5: of its MPI-IO driver's file); empty
  /// for a backend without Capability::Hints.
  virtual std::map<std::string, std::string> hints_in_effect() const { return {}; }
  /// Closes the file, throwing on error (collective where the backend's close is).
  virtual void close() = 0;
};

} // namespace pio::io
