// darshan-dxt-parser's text, line by line (dxt_reader.hpp).
#include "dxt_reader.hpp"

#include <map>
#include <sstream>
#include <vector>

#include "number_text.hpp"
#include "pio/error.hpp"

namespace pio::replay {
namespace {

const char *const kFormatHint =
    "the trace must be darshan-dxt-parser's output as it wrote it (darshan-dxt-parser "
    "log.darshan > trace.txt), or a file written in its format (docs/guides/replay.md)";

const char *const kRecordFields = "Module Rank Wt/Rd Segment Offset Length Start(s) End(s)";

/// The per-file, per-rank block a record belongs to.
struct Block {
  bool open = false;
  std::uint32_t file = 0;
  std::string path;
  std::int64_t line = 0;    // of its "# DXT, file_id" line
  std::int64_t rank = -1;   // from "# DXT, rank: R" (-1: not stated)
  std::int64_t writes = -1; // announced (-1: not stated)
  std::int64_t reads = -1;
  std::int64_t seen_writes = 0, seen_reads = 0;
};

class DxtReader {
public:
  DxtReader(TraceLines &lines, TraceSink &sink) : lines_(lines), sink_(sink) {}

  void run() {
    std::string line;
    while (lines_.next(line)) {
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos)
        continue;
      if (line[first] == '#')
        comment(line.substr(first + 1));
      else
        record(line);
    }
    close_block();
  }

private:
  [[noreturn]] void fail(const std::string &what, const std::string &hint = kFormatHint) const {
    throw Error(lines_.here() + ": " + what, hint);
  }

  static std::string trim(const std::string &s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos)
      return "";
    const auto b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
  }

  /// The integer after "key: " in a "# DXT, ..." line (up to the next comma), or nothing.
  static std::optional<std::int64_t> field(const std::string &text, const std::string &key) {
    const auto at = text.find(key + ":");
    if (at == std::string::npos)
      return std::nullopt;
    const auto from = at + key.size() + 1;
    const auto to = text.find(',', from);
    return whole_integer(trim(text.substr(from, to == std::string::npos ? to : to - from)));
  }

  void comment(const std::string &raw) {
    const std::string text = trim(raw);
    if (text.rfind("nprocs:", 0) == 0) {
      const auto n = whole_integer(trim(text.substr(7)));
      if (!n || *n < 1)
        fail("'# nprocs:' is not a positive process count");
      sink_.trace_ranks(*n, lines_.number());
      return;
    }
    if (text == "DXT_POSIX module data" || text == "DXT_MPIIO module data") {
      close_block();
      section_ = text.substr(4, text.find(' ') - 4);
      return;
    }
    if (text.rfind("DXT,", 0) != 0)
      return;
    const std::string body = trim(text.substr(4));
    if (body.rfind("file_id:", 0) == 0) {
      close_block();
      const auto name = body.find("file_name:");
      if (name == std::string::npos)
        fail("a '# DXT, file_id:' line without 'file_name:'");
      block_ = Block{};
      block_.open = true;
      block_.path = trim(body.substr(name + 10));
      block_.line = lines_.number();
      if (block_.path.empty())
        fail("an empty file_name");
      auto it = files_.find(block_.path);
      if (it == files_.end()) {
        it = files_.emplace(block_.path, static_cast<std::uint32_t>(files_.size())).first;
        sink_.file_seen(it->second, block_.path);
      }
      block_.file = it->second;
      return;
    }
    if (!block_.open)
      return;
    if (body.rfind("rank:", 0) == 0) {
      const auto r = field(body, "rank");
      if (!r || *r < 0)
        fail("'# DXT, rank:' is not a rank");
      block_.rank = *r;
    } else if (body.rfind("write_count:", 0) == 0) {
      const auto w = field(body, "write_count");
      const auto r = field(body, "read_count");
      if (!w || !r || *w < 0 || *r < 0)
        fail("'# DXT, write_count: W, read_count: R' without two counts");
      block_.writes = *w;
      block_.reads = *r;
    }
  }

  /// A block ends at the next file's preamble, a module section or the end of the trace: its
  /// records must be the ones its preamble announced (a trace cut short loses some).
  void close_block() {
    if (!block_.open)
      return;
    const Block b = block_;
    block_.open = false;
    if (b.writes < 0 || (b.seen_writes == b.writes && b.seen_reads == b.reads))
      return;
    throw Error(lines_.path() + ":" + std::to_string(b.line) + ": the block of file " + b.path +
                    (b.rank >= 0 ? ", rank " + std::to_string(b.rank) : std::string()) +
                    " announces " + std::to_string(b.writes) + " writes and " +
                    std::to_string(b.reads) + " reads, and " + std::to_string(b.seen_writes) +
                    " writes and " + std::to_string(b.seen_reads) + " reads follow it" +
                    (lines_.cut() ? " (the trace ends in the middle of a line)" : ""),
                "the trace was cut short or edited: write it again with darshan-dxt-parser, or "
                "correct the counts");
  }

  void record(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> f;
    std::string word;
    while (f.size() < 8 && in >> word)
      f.push_back(word);
    if (f.size() < 8) {
      if (lines_.cut())
        fail("the trace ends in the middle of a record (" + std::to_string(f.size()) +
                 " of its 8 fields: " + kRecordFields + ")",
             "the trace was cut short: write it again with darshan-dxt-parser");
      fail("a truncated record: " + std::to_string(f.size()) +
           " fields where a DXT record has 8 (" + kRecordFields + ")");
    }
    TraceOp op;
    if (f[0] == "X_POSIX")
      op.layer = Layer::Posix;
    else if (f[0] == "X_MPIIO")
      op.layer = Layer::MpiIo;
    else
      fail("unknown module '" + f[0] + "': darshan-dxt-parser writes X_POSIX and X_MPIIO records");
    if (!section_.empty() && section_ != f[0].substr(2))
      fail("an " + f[0] + " record in the DXT_" + section_ + " module's section");
    if (!block_.open)
      fail("a record before any '# DXT, file_id: ..., file_name: ...' line names its file");
    const auto rank = whole_integer(f[1]);
    if (!rank || *rank < 0)
      fail("rank '" + f[1] + "' is not a rank (a non-negative integer)");
    if (block_.rank >= 0 && *rank != block_.rank)
      fail("a record of rank " + f[1] + " in the block of rank " + std::to_string(block_.rank) +
           " (line " + std::to_string(block_.line) + ")");
    if (f[2] == "write")
      op.kind = OpKind::Write;
    else if (f[2] == "read")
      op.kind = OpKind::Read;
    else
      fail("'" + f[2] + "' is neither write nor read (the Wt/Rd column)");
    const auto segment = whole_integer(f[3]);
    const auto offset = whole_integer(f[4]);
    const auto length = whole_integer(f[5]);
    const auto start = whole_real(f[6]);
    const auto end = whole_real(f[7]);
    if (!segment || *segment < 0)
      fail("segment '" + f[3] + "' is not a non-negative integer");
    if (!offset)
      fail("offset '" + f[4] + "' is not an integer");
    if (!length)
      fail("length '" + f[5] + "' is not an integer");
    if (!start || !end)
      fail("the times '" + f[6] + "' and '" + f[7] + "' are not both numbers (seconds)");
    if (*length < 0)
      fail("a negative length " + f[5]);
    // X_MPIIO records -1 where darshan could not ask for the byte offset; the selection refuses
    // to replay those, and any other negative offset is wrong.
    if (*offset < 0 && !(op.layer == Layer::MpiIo && *offset == -1))
      fail("a negative offset " + f[4]);
    if (*end < *start)
      fail("an operation that ends (" + f[7] + " s) before it starts (" + f[6] + " s)");
    (op.kind == OpKind::Write ? block_.seen_writes : block_.seen_reads) += 1;
    op.rank = *rank;
    op.file = block_.file;
    op.offset = *offset;
    op.length = *length;
    op.start = *start;
    op.end = *end;
    op.line = lines_.number();
    sink_.op(op);
  }

  TraceLines &lines_;
  TraceSink &sink_;
  std::map<std::string, std::uint32_t> files_;
  std::string section_; // "POSIX" or "MPIIO" once a section header was seen
  Block block_;
};

} // namespace

void read_dxt(TraceLines &lines, TraceSink &sink) { DxtReader(lines, sink).run(); }

} // namespace pio::replay
