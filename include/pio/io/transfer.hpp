#pragma once
/// One data transfer as the I/O seam takes it (IOR's `xfer`, fio's `queue` are the models): how
/// it is positioned, coordinated and completed, its direction, its memory and, when the caller
/// knows them, the file bytes it covers. Every I/O interface (io::Interface) makes transfers of
/// this one shape; which call an interface makes for it is the interface's business.

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace pio::io {

/// Read or write.
enum class Direction {
  Write, ///< memory to file
  Read,  ///< file to memory
};

/// Where in the file the transfer starts.
enum class Positioning {
  ExplicitOffset,    ///< at Transfer::offset (MPI-IO: the *_at calls)
  IndividualPointer, ///< at this rank's file pointer, which the transfer advances
  SharedPointer,     ///< at the file pointer all ranks of the file share (collective: rank order)
};

/// Whether every rank of the file makes the call together.
enum class Coordination {
  Independent, ///< each rank on its own
  Collective,  ///< every rank of the file's communicator calls, some possibly with count 0
};

/// When the transfer is done.
enum class Completion {
  Blocking,    ///< when start() returns
  NonBlocking, ///< start() begins it into *Transfer::request; finish() or wait_all() ends it
  Split,       ///< start() is the collective's begin, finish() its end (collective only)
};

/// The text of each value (error messages, logs): "write", "explicit offset", ...
inline const char *to_string(Direction d) { return d == Direction::Write ? "write" : "read"; }
/// "explicit offset", "individual file pointer" or "shared file pointer".
inline const char *to_string(Positioning p) {
  switch (p) {
  case Positioning::ExplicitOffset:
    return "explicit offset";
  case Positioning::IndividualPointer:
    return "individual file pointer";
  case Positioning::SharedPointer:
    return "shared file pointer";
  }
  return "?";
}
/// "collective" or "independent".
inline const char *to_string(Coordination c) {
  return c == Coordination::Collective ? "collective" : "independent";
}
/// "blocking", "non-blocking" or "split".
inline const char *to_string(Completion c) {
  switch (c) {
  case Completion::Blocking:
    return "blocking";
  case Completion::NonBlocking:
    return "non-blocking";
  case Completion::Split:
    return "split";
  }
  return "?";
}

/// A contiguous run of bytes in the file.
struct Extent {
  std::int64_t offset = 0; ///< file offset in bytes
  std::int64_t length = 0; ///< bytes
};

/// One transfer. Memory is `count` elements of `datatype` at `buffer`; for MPI-IO the file side
/// is whatever view the caller set (etype and filetype), positioned as `positioning` says.
struct Transfer {
  Direction direction = Direction::Write;                ///< read or write
  Positioning positioning = Positioning::ExplicitOffset; ///< where it starts
  Coordination coordination = Coordination::Independent; ///< alone or with every rank
  Completion completion = Completion::Blocking;          ///< when it is done
  void *buffer = nullptr;                                ///< memory (written from, read into)
  int count = 0;                                         ///< elements of datatype
  MPI_Datatype datatype = MPI_BYTE;                      ///< memory layout of one element
  MPI_Offset offset = 0;          ///< ExplicitOffset: in etypes of the view (bytes without one)
  MPI_Request *request = nullptr; ///< NonBlocking: where the started request goes
  bool count_moved = false;       ///< report the elements actually moved (else `count` is assumed)
  /// The file bytes the transfer covers, in stream order (the order memory holds them), when the
  /// caller knows them; nullptr when not. A backend without file views (Capability::FileViews:
  /// POSIX, HDF5) acts on these; one with them (MPI-IO) places the transfer by its view.
  const Extent *extents = nullptr;
  std::size_t extent_count = 0; ///< entries at extents
};

} // namespace pio::io
