#pragma once
// The mpiio backend's Interface (private to the backend; tests link it): each Transfer becomes
// exactly one MPI_File_{read,write}{_at,,_shared}{,_all,_ordered} call, its i- form (MPI_Wait or
// MPI_Waitall to complete) or its split _begin/_end pair; views, seeks, sync and hints are the
// MPI-IO calls of the same names.

#include <mpi.h>

#include "pio/io/interface.hpp"

namespace pio::io {

/// MPI-IO over one MPI_File (not owned: MpiIoFile opens and closes it).
class MpiIo final : public Interface {
public:
  /// Transfers on `file`.
  explicit MpiIo(MPI_File file) : file_(file) {}
  std::int64_t start(const Transfer &t) override;
  std::int64_t finish(const Transfer &t) override;
  void wait_all(MPI_Request *requests, int n) override;
  void sync() override;
  /// MPI_File_get_size.
  std::int64_t size() override;
  /// MPI_File_set_view(file, disp, etype, filetype, "native", MPI_INFO_NULL).
  void set_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype) override;
  /// MPI_File_seek(MPI_SEEK_SET).
  void seek(MPI_Offset offset) override;
  /// MPI_File_seek_shared(MPI_SEEK_SET).
  void seek_shared(MPI_Offset offset) override;
  /// MPI_File_set_info.
  void set_info(const std::map<std::string, std::string> &hints) override;
  /// The MPI function start() calls for t, e.g. "MPI_File_write_at_all", or nullptr when MPI-IO
  /// has none (Split independent, NonBlocking on the shared pointer collectively).
  static const char *call_name(const Transfer &t);

private:
  MPI_File file_;
};

} // namespace pio::io
