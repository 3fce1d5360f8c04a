#pragma once
/// Spatial geometry of a pattern: which file bytes each rank touches in each work unit
/// (thesis §3.2: "a work unit is comprised of the amount of data that it accesses, and the
/// locations of the data within the file").

#include <cstdint>
#include <vector>

#include "pio/io/transfer.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::patterns {

/// A contiguous run of bytes in the file (the I/O seam's extent: what a unit covers is what its
/// transfers carry).
using Extent = io::Extent;

/// A file view for one unit: the unit's bytes are the first bytes seen through the view.
struct FileView {
  std::int64_t disp = 0; ///< view displacement
  Datatype filetype;     ///< filetype built from MPI_BYTE (etype is MPI_BYTE)
};

/// Memory layout of one unit's buffer.
struct MemoryLayout {
  std::int64_t buffer_bytes = 0; ///< bytes to allocate
  Datatype type;                 ///< memory datatype used with count 1; empty = contiguous bytes
};

/// What a pattern defines. All ranks can evaluate it for any rank (e.g. random strided
/// computes every rank's layout from a shared seed), so layouts agree without communication.
class Geometry {
public:
  virtual ~Geometry() = default;
  /// The file extents `rank` accesses in `unit`, in the order its bytes stream through memory
  /// (the order of the file view's typemap). The definitive map: verification and the
  /// no-file-view mode use it.
  virtual std::vector<Extent> extents(int rank, std::int64_t unit) const = 0;
  /// The file view for `rank`'s `unit`. Default: an hindexed type over extents().
  /// Patterns override it with their natural datatype (vector, subarray, ...).
  virtual FileView view(int rank, std::int64_t unit) const;
  /// The memory layout for `rank`'s `unit`. Default: contiguous, total extent length.
  /// FLASH-IO overrides it with a datatype that skips guard cells.
  virtual MemoryLayout memory(int rank, std::int64_t unit) const;
  /// The rank whose stamps the bytes `rank` accesses in `unit` hold (default: `rank`). A
  /// pattern in which several ranks access the same bytes of one shared file (sequential read)
  /// names one rank: only it prepares those bytes and the others verify against its stamps.
  virtual int data_rank(int rank, std::int64_t /*unit*/) const { return rank; }
  /// The extents `rank` writes, untimed and with its own stamps, before a read-type mode reads
  /// `unit`: the bytes of the ranks that name it in data_rank(). Default: its own extents when
  /// data_rank(rank, unit) is `rank`, else none. A pattern whose ranks read each other's bytes
  /// in any pattern (a replayed trace's shared reads) names one data rank and returns here every
  /// extent that rank prepares.
  virtual std::vector<Extent> prepares(int rank, std::int64_t unit) const;
  /// When `unit` may start on `rank`: seconds after the rank's start of the test's first unit
  /// (its own clock), or a negative value for at once (the default). The engine waits for it,
  /// untimed, at the end of before_work_unit (a replayed trace's recorded times, Timing recorded).
  virtual double release_time(int /*rank*/, std::int64_t /*unit*/) const { return -1; }
  /// Payload bytes `rank` moves in `unit` (sum of extent lengths).
  std::int64_t unit_bytes(int rank, std::int64_t unit) const;
};

/// Builds an MPI_BYTE hindexed filetype over extents, displacements relative to `base`.
Datatype hindexed_bytes(const std::vector<Extent> &extents, std::int64_t base);

} // namespace pio::patterns
