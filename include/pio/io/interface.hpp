#pragma once
/// The I/O seam: the one place a module's data transfers, views, seeks and flushes go through.
/// Each backend (pio/io/backend.hpp: mpiio, posix, hdf5, or one of a site's) implements
/// Interface over a file it opened for the harness; the pattern engine, b_eff_io and IMB-IO keep
/// only their methodology (what to move, when, how to check it) and hand each call here.
///
/// A backend without file views (Capability::FileViews) places a transfer by its
/// Transfer::extents: consecutive bytes of memory (count x datatype must then be contiguous)
/// go to each extent in turn. A call that needs a capability the backend lacks throws a
/// pio::Error naming the capability; modules check the capabilities before any I/O
/// (ModuleContext::require), so that a config is refused at its Interface line instead.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>

#include "pio/error.hpp"
#include "pio/io/capability.hpp"
#include "pio/io/transfer.hpp"

namespace pio::io {

/// Where a backend that times its operations reports each one's latency, from its submission to
/// its completion (fio's clat): the harness's histogram of a phase (PhaseResult::latency).
class LatencySink {
public:
  /// One operation took `seconds` from submission to completion.
  virtual void record(double seconds) = 0;

protected:
  ~LatencySink() = default;
};

/// One backend's calls over one open file. Errors are thrown as pio::Error (MpiError for MPI
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
  /// Collective over the file's ranks where the backend's flush is (MPI-IO, HDF5).
  virtual void sync() = 0;
  /// Declares the bytes the file's data spans, before the first transfer of a test (the maximum
  /// over the file's ranks of offset + length of every extent). HDF5 creates (or opens) its
  /// dataset of that size, collectively over the file's ranks; MPI-IO and POSIX need nothing.
  virtual void shape(std::int64_t bytes) { (void)bytes; }
  /// Bytes of data the file holds now, as found on this rank (MPI_File_get_size, fstat; HDF5:
  /// its dataset's extent, 0 without one): what an earlier block left, for a reader that draws
  /// its offsets from the whole file (IOR's get_file_size before a random read).
  virtual std::int64_t size() = 0;
  /// Sets the file view (MPI_File_set_view, "native" representation): displacement in bytes,
  /// etype, filetype. Collective over the file's ranks. Capability::FileViews.
  virtual void set_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype) {
    (void)disp, (void)etype, (void)filetype;
    lacks(Capability::FileViews, "set_view");
  }
  /// Moves this rank's file pointer to `offset` (etypes of the view; bytes without one), as
  /// MPI_File_seek(MPI_SEEK_SET). Capability::IndividualPointers.
  virtual void seek(MPI_Offset offset) {
    (void)offset;
    lacks(Capability::IndividualPointers, "seek");
  }
  /// Moves the file pointer the file's ranks share to `offset`, as
  /// MPI_File_seek_shared(MPI_SEEK_SET); collective. Capability::SharedPointers.
  virtual void seek_shared(MPI_Offset offset) {
    (void)offset;
    lacks(Capability::SharedPointers, "seek_shared");
  }
  /// Sets MPI-IO hints on the open file (MPI_File_set_info); collective. Capability::Hints.
  virtual void set_info(const std::map<std::string, std::string> &hints) {
    (void)hints;
    lacks(Capability::Hints, "set_info");
  }
  /// How many operations the backend keeps in flight at once (io_uring's QueueDepth): 1 for a
  /// backend whose calls each complete before they return. The pattern engine leaves up to this
  /// many transfers in flight across the units of a phase whose units may overlap
  /// (UnitContext::overlap; docs/reference/timing.md, "Queue depth").
  virtual int queue_depth() const { return 1; }
  /// Where operations started from now on report their latencies (nullptr: those are not
  /// recorded). The harness points it at the phase's histogram for each work unit and back at
  /// nullptr after it, so that untimed transfers (preparing, Verify's read-back) stay out; an
  /// operation started inside a unit reports when it completes, whenever that is. A backend
  /// without per-operation times ignores it.
  virtual void report_latencies(LatencySink *sink) { latency_sink_ = sink; }
  /// start() then finish(): the whole transfer, whatever its completion.
  std::int64_t run(const Transfer &t) {
    const std::int64_t started = start(t);
    return t.completion == Completion::Blocking ? started : finish(t);
  }

protected:
  /// report_latencies' sink (nullptr: operations started now are not timed).
  LatencySink *latency_sink_ = nullptr;
  /// Throws the error of a call this backend cannot make.
  [[noreturn]] static void lacks(Capability c, const char *call) {
    throw Error(std::string("Interface::") + call + ": this backend has no " + describe(c) +
                    " (capability " + to_string(c) + ")",
                "check the capability before the call (ModuleContext::require), or choose an "
                "Interface that offers it (pio-harness --list-interfaces)");
  }
};

} // namespace pio::io
