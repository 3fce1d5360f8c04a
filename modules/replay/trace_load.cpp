// A trace read for one replay block (trace_load.hpp).
#include "trace_load.hpp"

#include <algorithm>
#include <fstream>
#include <limits>

#include <fnmatch.h>

#include "dxt_reader.hpp"
#include "pio/directive.hpp"
#include "pio/error.hpp"
#include "strace_reader.hpp"

namespace pio::replay {

const char *to_string(OpSelection s) {
  switch (s) {
  case OpSelection::Writes:
    return "writes";
  case OpSelection::Reads:
    return "reads";
  case OpSelection::All:
    return "all";
  }
  return "?";
}

namespace {

/// A traced file and what it saw.
struct TracedFile {
  std::string path;
  bool matches = false;
  std::int64_t ops[2][2] = {{0, 0}, {0, 0}}; // [layer][kind]: operations that moved bytes
  std::int64_t bytes = 0;                    // of both layers
  std::map<std::string, std::int64_t> calls; // other calls (strace), by name
};

bool glob_match(const std::string &pattern, const std::string &path) {
  if (pattern.empty())
    return true;
  const auto slash = path.rfind('/');
  const std::string &subject = pattern.find('/') != std::string::npos || slash == std::string::npos
                                   ? path
                                   : path.substr(slash + 1);
  return fnmatch(pattern.c_str(), subject.c_str(), 0) == 0;
}

std::string plural(std::int64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "2400 bytes", "20 KiB".
std::string bytes_text(std::int64_t n) {
  const std::string s = format_size(n);
  if (s.back() >= '0' && s.back() <= '9')
    return plural(n, "byte", "bytes");
  return s.substr(0, s.size() - 1) + " " + s.back() + "iB";
}

/// The sink that picks the replayed file's operations.
class Selection : public TraceSink {
public:
  Selection(const TraceRequest &q, LoadedTrace &out) : q_(q), out_(out) {
    if (q.keep_ops)
      out_.store = std::make_unique<OpStore>(q.memory_budget, q.spill_dir);
  }

  void trace_ranks(std::int64_t nprocs, std::int64_t line) override {
    nprocs_ = nprocs;
    nprocs_line_ = line;
  }
  void file_seen(std::uint32_t index, const std::string &path) override {
    if (files_.size() <= index)
      files_.resize(index + 1);
    files_[index].path = path;
    files_[index].matches = glob_match(q_.file_pattern, path);
  }
  bool wants(std::uint32_t file) const override { return files_.at(file).matches; }

  void op(const TraceOp &op) override {
    if (nprocs_ > 0 && op.rank >= nprocs_)
      fail("Trace",
           at(op.line) + ": a record of rank " + std::to_string(op.rank) + " in a trace of " +
               std::to_string(nprocs_) + " processes ('# nprocs:' at line " +
               std::to_string(nprocs_line_) + ")",
           "correct the rank or the nprocs line of the trace");
    max_rank_ = std::max(max_rank_, op.rank);
    TracedFile &f = files_.at(op.file);
    if (op.length > 0) {
      ++f.ops[static_cast<int>(op.layer)][static_cast<int>(op.kind)];
      f.bytes += op.length;
    }
    if (!f.matches || op.layer != q_.layer)
      return;
    if (selected_ < 0)
      selected_ = op.file;
    if (static_cast<std::int64_t>(op.file) != selected_) {
      ambiguous_ = true;
      return;
    }
    out_.summary.add(op);
    const bool wanted =
        q_.ops == OpSelection::All || (q_.ops == OpSelection::Writes) == (op.kind == OpKind::Write);
    if (!wanted) {
      ++out_.not_replayed[std::string(to_string(op.kind)) + "s (TraceOps " + to_string(q_.ops) +
                          ")"];
      return;
    }
    if (op.length == 0) {
      ++out_.not_replayed[std::string(to_string(op.kind)) + "s of 0 bytes"];
      return;
    }
    if (op.offset < 0)
      fail("TraceLayer",
           at(op.line) + ": an X_MPIIO record without its offset (-1: darshan could not call "
                         "MPI_File_get_byte_offset, as under Open MPI)",
           "replay the POSIX layer underneath it (TraceLayer posix), whose offsets are the file's");
    if (q_.mapping == RankMapping::Exact && op.rank >= q_.run_ranks)
      fail("TraceRanks",
           at(op.line) + ": trace rank " + std::to_string(op.rank) +
               " replays on a run rank the run does not have (" +
               plural(q_.run_ranks, "process", "processes") + ", TraceRanks exact)",
           "run with at least " + std::to_string(op.rank + 1) +
               " processes, or map the trace's ranks onto this run's with TraceRanks modulo or "
               "scaled");
    if (op.offset > std::numeric_limits<std::int64_t>::max() - q_.header - op.length)
      fail("Trace", at(op.line) + ": HeaderOffset + offset + length passes 2^63-1 bytes",
           "correct the trace or lower HeaderOffset");
    const std::int64_t offset = q_.header + op.offset;
    if (trace_rank_ops_.size() <= static_cast<std::size_t>(op.rank))
      trace_rank_ops_.resize(static_cast<std::size_t>(op.rank) + 1, 0);
    ++trace_rank_ops_[static_cast<std::size_t>(op.rank)];
    out_.first_start = out_.replayed_ops == 0 ? op.start : std::min(out_.first_start, op.start);
    ++out_.replayed_ops;
    out_.replayed_bytes += op.length;
    out_.file_end = std::max(out_.file_end, offset + op.length);
    if (out_.store)
      out_.store->add(op.rank, StoredOp{offset, op.length, op.start, op.end, op.line});
  }

  void other(std::uint32_t file, std::int64_t, const std::string &call, std::int64_t) override {
    ++files_.at(file).calls[call];
  }

  /// After the whole trace: the file chosen, the rest counted, the store sorted.
  void finish() {
    if (selected_ < 0 || ambiguous_)
      no_single_file();
    const TracedFile &f = files_[static_cast<std::size_t>(selected_)];
    out_.file = f.path;
    for (const auto &f2 : files_)
      out_.files += f2.bytes > 0 ? 1 : 0;
    for (const auto &c : f.calls)
      out_.not_replayed[c.first] += c.second;
    const int other = q_.layer == Layer::Posix ? 1 : 0;
    const char *other_name = other == 1 ? "X_MPIIO" : "X_POSIX";
    for (int k = 0; k < 2; ++k)
      if (f.ops[other][k] > 0)
        out_.not_replayed[std::string(other_name) + " " + to_string(static_cast<OpKind>(k)) +
                          "s (TraceLayer " + to_string(q_.layer) + ")"] += f.ops[other][k];
    if (out_.replayed_ops == 0) {
      const auto &s = out_.summary;
      fail("TraceOps",
           "the traced file " + f.path + " has no " +
               (q_.ops == OpSelection::Reads ? "reads" : "writes") + " to replay (it has " +
               plural(s.of(OpKind::Read).ops, "read", "reads") + " and " +
               plural(s.of(OpKind::Write).ops, "write", "writes") + " of more than 0 bytes)",
           "replay what it has: TraceOps reads, writes or all (the block's Mode decides whether "
           "they are read or written)");
    }
    out_.trace_ranks = nprocs_ > 0 ? nprocs_ : max_rank_ + 1;
    out_.ops_per_rank.assign(static_cast<std::size_t>(q_.run_ranks), 0);
    const auto map = [&](std::int64_t t) {
      return run_rank(q_.mapping, t, out_.trace_ranks, q_.run_ranks);
    };
    for (std::size_t t = 0; t < trace_rank_ops_.size(); ++t)
      if (const auto r = map(static_cast<std::int64_t>(t)); r >= 0)
        out_.ops_per_rank[static_cast<std::size_t>(r)] += trace_rank_ops_[t];
    if (out_.store)
      out_.store->finish(map, q_.run_ranks);
  }

private:
  [[noreturn]] static void fail(const std::string &directive, const std::string &what,
                                const std::string &hint) {
    throw DirectiveError(directive, what, hint);
  }
  std::string at(std::int64_t line) const { return trace_location(q_.path, line); }

  [[noreturn]] void no_single_file() const {
    // Files with reads or writes; of those, the ones that match and have the layer's records.
    const int layer = static_cast<int>(q_.layer);
    std::vector<const TracedFile *> with_ops, matching, in_layer;
    for (const auto &f : files_)
      if (f.bytes > 0) {
        with_ops.push_back(&f);
        if (f.matches)
          matching.push_back(&f);
        if (f.matches && f.ops[layer][0] + f.ops[layer][1] > 0)
          in_layer.push_back(&f);
      }
    const auto list = [&](const std::vector<const TracedFile *> &files) {
      std::string s;
      for (std::size_t i = 0; i < files.size() && i < 12; ++i) {
        const TracedFile &f = *files[i];
        const std::int64_t reads = f.ops[0][0] + f.ops[1][0], writes = f.ops[0][1] + f.ops[1][1];
        s += (i ? "; " : "") + f.path + " (" + plural(reads, "read", "reads") + ", " +
             plural(writes, "write", "writes") + ", " + bytes_text(f.bytes) + ")";
      }
      if (files.size() > 12)
        s += "; and " + std::to_string(files.size() - 12) + " more";
      return s;
    };
    if (with_ops.empty())
      fail("Trace", "the trace " + q_.path + " holds no read or write of a file",
           "trace the program's I/O (docs/guides/replay.md, 'Recording a trace')");
    if (matching.empty())
      fail("TraceFile",
           "no traced file with reads or writes matches '" + q_.file_pattern +
               "'; the trace's: " + list(with_ops),
           "set TraceFile to one of them (a glob; without a '/' it matches the file's base name)");
    if (!ambiguous_) // the matching files have records of the other layer only
      fail("TraceLayer",
           "the traced file " + matching.front()->path + " has no " +
               (q_.layer == Layer::Posix ? "X_POSIX" : "X_MPIIO") + " records",
           std::string("replay the layer it has: TraceLayer ") +
               (q_.layer == Layer::Posix ? "mpiio" : "posix"));
    fail("TraceFile",
         std::to_string(in_layer.size()) + " traced files have reads or writes" +
             (q_.file_pattern.empty() ? "" : " matching '" + q_.file_pattern + "'") + ": " +
             list(in_layer) + "; a block replays one file",
         "set TraceFile to the one to replay (a glob; without a '/' it matches the base name)");
  }

  const TraceRequest &q_;
  LoadedTrace &out_;
  std::vector<TracedFile> files_;
  std::int64_t nprocs_ = 0, nprocs_line_ = 0, max_rank_ = -1;
  std::int64_t selected_ = -1;
  bool ambiguous_ = false;
  std::vector<std::int64_t> trace_rank_ops_;
};

} // namespace

LoadedTrace load_trace(const TraceRequest &q) {
  std::ifstream in(q.path);
  if (!in)
    throw DirectiveError("Trace", "cannot open the trace " + q.path,
                         "name a readable trace file (a relative path is taken from the "
                         "directory pio-harness runs in)");
  LoadedTrace out;
  out.format = q.format ? *q.format : [&] {
    try {
      return guess_trace_format(in, q.path);
    } catch (const DirectiveError &) {
      throw;
    } catch (const Error &e) {
      throw DirectiveError("Trace", e.what(), e.hint());
    }
  }();
  Selection sink(q, out);
  TraceLines lines(in, q.path);
  try {
    if (out.format == TraceFormat::Dxt)
      read_dxt(lines, sink);
    else
      read_strace(lines, sink);
  } catch (const DirectiveError &) {
    throw;
  } catch (const Error &e) {
    throw DirectiveError("Trace", e.what(), e.hint());
  }
  if (in.bad())
    throw DirectiveError("Trace", "cannot read the trace " + q.path + " to its end",
                         "check the file and its file system");
  sink.finish();
  return out;
}

} // namespace pio::replay
