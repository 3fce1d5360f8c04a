#pragma once
// An `strace -f -ttt -T [-y]` log (docs/guides/replay.md, "Recording with strace") read as a trace:
// each process that reads or writes a wanted file is a rank, numbered in the order of its first
// such read or write; the file each descriptor names is followed through open, openat, creat,
// dup, dup2, dup3, fcntl F_DUPFD and fork / clone (threads share their process's descriptors);
// read, write, readv and writev go at the descriptor's position, which lseek, and they, move;
// pread64, pwrite64, preadv, pwritev, preadv2 and pwritev2 name their offset; copy_file_range
// and sendfile are a read of one file and a write of the other. Times: the -ttt timestamp
// (relative to the log's first), -T the duration (without -T an operation takes no time).
// Every other call on a wanted file (openat, close, lseek, fsync, ftruncate, fstat, mmap, ...),
// a failed read or write and one that moved no byte are counted by name (TraceSink::other).

#include "trace_lines.hpp"
#include "trace_op.hpp"

namespace pio::replay {

/// Reads the whole log into `sink`, streaming. Throws pio::Error "path:line: what" for a line
/// that is not strace's -ttt output, or is cut short.
void read_strace(TraceLines &lines, TraceSink &sink);

} // namespace pio::replay
