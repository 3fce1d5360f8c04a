#pragma once
// darshan-dxt-parser's text (darshan-util, "Guide to darshan-dxt-parser output"): per traced
// file and rank a preamble of "# DXT, ..." lines (file_id and file_name, rank and hostname,
// write_count and read_count, mnt_pt and fs_type), then one line per operation:
//
//   # Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)
//    X_POSIX       0  write        0               0          262144      0.0029      0.0032
//
// possibly followed by Lustre OST numbers in brackets and the pthread id (Darshan 3.6 on) or
// N/A. A rank's writes come first, then its reads, each chronologically; the DXT_POSIX and
// DXT_MPIIO sections hold the two layers. Offsets of X_MPIIO records are the MPI-IO layer's
// (-1 where darshan could not ask MPI_File_get_byte_offset, as under Open MPI).

#include "trace_lines.hpp"
#include "trace_op.hpp"

namespace pio::replay {

/// Reads the whole trace into `sink`, streaming. Throws pio::Error "path:line: what" for a line
/// that is not the parser's format: a record cut short, an unknown module, a negative offset or
/// length, a record outside a file's block, counts that disagree with a block's preamble.
void read_dxt(TraceLines &lines, TraceSink &sink);

} // namespace pio::replay
