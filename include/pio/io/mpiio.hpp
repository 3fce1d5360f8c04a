#pragma once
/// The MPI-IO interface of the I/O seam (ROMIO here): each Transfer becomes exactly one
/// MPI_File_{read,write}{_at,,_shared}{,_all,_ordered} call, its i- form (MPI_Wait or MPI_Waitall
/// to complete) or its split _begin/_end pair, on a file the harness opened. File views and
/// pointer seeks stay with the caller (MPI_File_set_view, MPI_File_seek, MPI_File_seek_shared).

#include "pio/io/interface.hpp"

namespace pio::io {

/// MPI-IO over one MPI_File (not owned: the harness opens and closes it).
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
  /// The MPI function start() calls for t, e.g. "MPI_File_write_at_all", or nullptr when MPI-IO
  /// has none (Split independent, NonBlocking on the shared pointer collectively).
  static const char *call_name(const Transfer &t);
  /// The file transfers go to.
  MPI_File file() const { return file_; }

private:
  MPI_File file_;
};

} // namespace pio::io
