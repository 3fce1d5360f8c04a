#pragma once
/// The I/O seam: the one place a module's data transfers go through. Each I/O interface is an
/// implementation of Interface over a file the harness opened; io::MpiIo (pio/io/mpiio.hpp) is
/// MPI-IO, io::PosixIo (pio/io/posix.hpp) POSIX. The pattern engine, b_eff_io and IMB-IO keep only
/// their methodology (what to move, when, how to check it) and hand each transfer here.
///
/// How the interfaces without file views implement it (docs/interfaces.md):
/// - POSIX (pwrite/pread, IOR's POSIX backend): the file is a descriptor the interface opened on
///   the harness's file. start() of a Blocking transfer makes one pwrite/pread per entry of
///   Transfer::extents, taking consecutive bytes of the buffer (count x datatype must then be
///   contiguous memory: the engine's no-view path), looping on short transfers; Collective is
///   accepted and made independent; NonBlocking does the transfer in start() and sets *request
///   to MPI_REQUEST_NULL (finish and wait_all then return at once); Split and the two file
///   pointers need state POSIX has not (refused with a pio::Error naming the combination).
///   A transfer without extents is refused: POSIX cannot see an MPI file view.
/// - Parallel HDF5 (a 1-D byte dataset, IOR's HDF5 backend): the file space selection is the
///   union of Transfer::extents as hyperslabs, the memory space `count x datatype` bytes;
///   H5Dwrite/H5Dread with a transfer property list set independent or collective
///   (H5Pset_dxpl_mpio) from Transfer::coordination; explicit offsets only.

#include <cstdint>

#include "pio/io/transfer.hpp"

namespace pio::io {

/// One I/O interface over one open file. Errors are thrown as pio::Error (MpiError for MPI
/// return codes), naming the call that failed.
class Interface {
public:
  virtual ~Interface() = default;
  /// Makes transfer t: Blocking, the whole transfer; NonBlocking, starts it into *t.request;
  /// Split, its begin. Returns the elements moved (t.count unless t.count_moved asks for the
  /// real figure; 0 for a transfer only started).
  virtual std::int64_t start(const Transfer &t) = 0;
  /// Completes a transfer start() began: NonBlocking waits on *t.request, Split makes the end;
  /// nothing for Blocking. Returns the elements moved as start() does.
  virtual std::int64_t finish(const Transfer &t) = 0;
  /// Completes n NonBlocking transfers whose requests are requests[0 .. n-1].
  virtual void wait_all(MPI_Request *requests, int n) = 0;
  /// Flushes this rank's writes to storage (MPI_File_sync, fsync, H5Fflush): SyncWrites.
  /// Collective over the file's ranks for MPI-IO and HDF5.
  virtual void sync() = 0;
  /// Declares the bytes the file's data spans, before the first transfer of a test (the maximum
  /// over the file's ranks of offset + length of every extent). HDF5 creates (or opens) its
  /// dataset of that size, collectively over the file's ranks; MPI-IO and POSIX need nothing.
  virtual void shape(std::int64_t bytes) { (void)bytes; }
  /// Bytes of data the file holds now, as found on this rank (MPI_File_get_size, fstat; HDF5:
  /// its dataset's extent, 0 without one): what an earlier block left, for a reader that draws
  /// its offsets from the whole file (IOR's get_file_size before a random read).
  virtual std::int64_t size() = 0;
  /// start() then finish(): the whole transfer, whatever its completion.
  std::int64_t run(const Transfer &t) {
    const std::int64_t started = start(t);
    return t.completion == Completion::Blocking ? started : finish(t);
  }
};

} // namespace pio::io
