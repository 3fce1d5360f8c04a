#pragma once
// The operations a trace holds, as the readers (dxt_reader, strace_reader) hand them on: one
// read or write of one traced process ("rank") on one traced file, with its recorded times, and
// the calls the pattern engine cannot replay (opens, seeks, fsyncs, ...) by name.

#include <cstdint>
#include <string>

namespace pio::replay {

/// Read or write.
enum class OpKind { Read, Write };

/// The layer a DXT record comes from (darshan-dxt-parser's X_POSIX and X_MPIIO modules); strace
/// records are POSIX calls.
enum class Layer { Posix, MpiIo };

/// "read" / "write".
inline const char *to_string(OpKind k) { return k == OpKind::Read ? "read" : "write"; }
/// "posix" / "mpiio" (the TraceLayer values).
inline const char *to_string(Layer l) { return l == Layer::Posix ? "posix" : "mpiio"; }

/// One traced read or write.
struct TraceOp {
  std::int64_t rank = 0; ///< the trace's rank (DXT) or process number (strace, 0-based)
  OpKind kind = OpKind::Write;
  Layer layer = Layer::Posix;
  std::uint32_t file = 0;  ///< the reader's index of the traced file (TraceSink::file_seen)
  std::int64_t offset = 0; ///< file offset in bytes
  std::int64_t length = 0; ///< bytes moved
  double start = 0;        ///< seconds on the trace's clock
  double end = 0;          ///< seconds on the trace's clock (= start when not recorded)
  std::int64_t line = 0;   ///< the trace line that completes the operation
};

/// Receives what a trace reader finds, in the trace's order.
class TraceSink {
public:
  virtual ~TraceSink() = default;
  /// The processes the traced run had, when the trace states it (DXT's "# nprocs: N").
  virtual void trace_ranks(std::int64_t /*nprocs*/, std::int64_t /*line*/) {}
  /// A traced file seen for the first time, with the index its operations carry.
  virtual void file_seen(std::uint32_t index, const std::string &path) = 0;
  /// Whether operations on this file are wanted (strace numbers processes by their first
  /// operation on a wanted file).
  virtual bool wants(std::uint32_t file) const = 0;
  /// One read or write.
  virtual void op(const TraceOp &op) = 0;
  /// A call on a traced file the engine cannot replay (openat, lseek, fsync, close, a failed or
  /// empty read, ...), by the name it is counted under; rank < 0 when the process has no rank
  /// (it made no read or write on a wanted file yet).
  virtual void other(std::uint32_t file, std::int64_t rank, const std::string &call,
                     std::int64_t line) = 0;
};

/// "path:line: what": where in a trace a problem is.
inline std::string trace_location(const std::string &path, std::int64_t line) {
  return path + ":" + std::to_string(line);
}

} // namespace pio::replay
