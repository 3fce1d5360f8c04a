// An strace log as a trace (strace_reader.hpp).
#include "strace_reader.hpp"

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "number_text.hpp"
#include "pio/error.hpp"
#include "strace_syntax.hpp"

namespace pio::replay {
namespace {

const char *const kRecordHint =
    "record with strace -f -ttt -T -y -o trace.log <program> (docs/guides/replay.md); a log cut "
    "short "
    "(the program or strace killed) ends in the middle of a line: record it again";

/// An open file description: what dup'ed descriptors and forked children share.
struct Description {
  std::int64_t file = -1; // index of its path, -1 if unknown (opened before the log began)
  std::int64_t pos = 0;
  bool append = false;
};

using FdTable = std::map<std::int64_t, std::shared_ptr<Description>>;

/// A process: its rank, its descriptors (shared with its threads and with CLONE_FILES children).
struct Process {
  std::int64_t rank = -1;
  std::shared_ptr<FdTable> fds = std::make_shared<FdTable>();
  std::string cwd; // from -y's AT_FDCWD</cwd>
};

/// A call begun on one line and finished on another.
struct Pending {
  std::string name, args;
  std::int64_t seconds = 0, micros = 0;
};

bool starts(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

class StraceReader {
public:
  StraceReader(TraceLines &lines, TraceSink &sink) : lines_(lines), sink_(sink) {}

  void run() {
    std::string text, why;
    while (lines_.next(text)) {
      if (text.find_first_not_of(" \t") == std::string::npos)
        continue;
      const auto line = parse_strace_line(text, &why);
      if (!line) {
        if (lines_.cut())
          fail("the log ends in the middle of a line (" + why + ")");
        fail("not a line of strace -f -ttt -T output: " + why);
      }
      if (line->kind == StraceLine::Kind::Event)
        continue;
      if (!origin_set_) {
        origin_s_ = line->seconds;
        origin_us_ = line->micros;
        origin_set_ = true;
      }
      if (line->kind == StraceLine::Kind::Unfinished) {
        pending_[line->pid] = Pending{line->name, line->args, line->seconds, line->micros};
        continue;
      }
      StraceLine call = *line;
      if (line->kind == StraceLine::Kind::Resumed) {
        auto it = pending_.find(line->pid);
        const bool joined = it != pending_.end() && it->second.name == line->name;
        // Both halves' arguments (a brace opened in the first closes in the second).
        if (!complete_call(joined ? it->second.args + line->args : line->args, call)) {
          if (line->args.size() >= 17 &&
              line->args.compare(line->args.size() - 17, 17, " <unfinished ...>") == 0)
            continue; // resumed and interrupted again: a later half ends it
          if (lines_.cut())
            fail("the log ends in the middle of a line (a resumed call without its end)");
          if (!joined)
            continue; // its first half is before the log began (strace -p attached late)
          fail("not a line of strace -f -ttt -T output: a resumed call without its closing "
               "parenthesis or its result");
        }
        if (!joined)
          continue;
        call.seconds = it->second.seconds;
        call.micros = it->second.micros;
        pending_.erase(it);
      }
      handle(call);
    }
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw Error(lines_.here() + ": " + what, kRecordHint);
  }

  double when(const StraceLine &l) const {
    return static_cast<double>(l.seconds - origin_s_) +
           static_cast<double>(l.micros - origin_us_) * 1e-6;
  }

  std::shared_ptr<Process> &process(std::int64_t pid) {
    auto &p = processes_[pid];
    if (!p)
      p = std::make_shared<Process>();
    return p;
  }

  std::int64_t file_index(const std::string &path) {
    auto it = files_.find(path);
    if (it == files_.end()) {
      it = files_.emplace(path, static_cast<std::int64_t>(files_.size())).first;
      sink_.file_seen(static_cast<std::uint32_t>(it->second), path);
      sizes_.push_back(0);
    }
    return it->second;
  }

  /// A path as opened: absolute (-y's return value) when known, else joined to the directory
  /// descriptor's path or the process's cwd when those are known.
  std::string resolve(const Process &p, const FdText *dir, const std::string &path) const {
    if (path.empty() || path[0] == '/')
      return path;
    std::string base;
    if (dir && !dir->path.empty())
      base = dir->path;
    else if (dir && dir->fd == -100)
      base = p.cwd;
    return base.empty() ? path : base + "/" + path;
  }

  /// The description behind a descriptor argument; with -y a descriptor opened before the log
  /// began is learnt from its path (position 0).
  std::shared_ptr<Description> described(Process &p, const std::string &arg) {
    const auto fd = parse_fd(arg);
    if (!fd || fd->fd < 0)
      return nullptr;
    auto it = p.fds->find(fd->fd);
    if (it != p.fds->end())
      return it->second;
    if (fd->path.empty() || fd->path[0] != '/')
      return nullptr;
    auto d = std::make_shared<Description>();
    d->file = file_index(fd->path);
    (*p.fds)[fd->fd] = d;
    return d;
  }

  bool wanted(const Description *d) const {
    return d && d->file >= 0 && sink_.wants(static_cast<std::uint32_t>(d->file));
  }

  void count(Process &p, const Description *d, const std::string &what) {
    if (wanted(d))
      sink_.other(static_cast<std::uint32_t>(d->file), p.rank, what, lines_.number());
  }

  /// One read or write that moved `bytes` at `offset` (a position when `advance`).
  void data(Process &p, Description *d, OpKind kind, const StraceLine &l, std::int64_t offset,
            bool advance, std::int64_t bytes) {
    if (!d)
      return;
    if (bytes < 0) {
      count(p, d, l.name + " (failed)");
      return;
    }
    if (kind == OpKind::Write && d->append && advance && d->file >= 0)
      offset = sizes_[static_cast<std::size_t>(d->file)];
    if (advance)
      d->pos = offset + bytes;
    if (d->file < 0)
      return;
    auto &size = sizes_[static_cast<std::size_t>(d->file)];
    if (kind == OpKind::Write && offset + bytes > size)
      size = offset + bytes;
    if (!wanted(d))
      return;
    if (bytes == 0) {
      count(p, d, l.name + " of 0 bytes");
      return;
    }
    if (p.rank < 0)
      p.rank = next_rank_++;
    TraceOp op;
    op.rank = p.rank;
    op.kind = kind;
    op.layer = Layer::Posix;
    op.file = static_cast<std::uint32_t>(d->file);
    op.offset = offset;
    op.length = bytes;
    op.start = when(l);
    op.end = op.start + (l.duration > 0 ? l.duration : 0);
    op.line = lines_.number();
    sink_.op(op);
  }

  void handle(const StraceLine &l) {
    auto &proc = process(l.pid);
    Process &p = *proc;
    const auto args = split_arguments(l.args);
    const auto ret = return_value(l.ret);
    const auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : std::string(); };
    const std::string &n = l.name;

    if (n == "open" || n == "openat" || n == "creat" || n == "openat2") {
      const bool at = n == "openat" || n == "openat2";
      const auto dir = at ? parse_fd(arg(0)) : std::nullopt;
      if (dir && dir->fd == -100 && !dir->path.empty())
        p.cwd = dir->path;
      const auto path = unquote(arg(at ? 1 : 0));
      if (!path)
        return;
      const auto fd = parse_fd(l.ret);
      std::string full =
          fd && !fd->path.empty() ? fd->path : resolve(p, dir ? &*dir : nullptr, *path);
      const std::string flags = n == "creat" ? "O_CREAT|O_WRONLY|O_TRUNC" : arg(at ? 2 : 1);
      if (!ret || *ret < 0) {
        const auto known = files_.find(full);
        if (known != files_.end() && sink_.wants(static_cast<std::uint32_t>(known->second)))
          sink_.other(static_cast<std::uint32_t>(known->second), p.rank, n + " (failed)",
                      lines_.number());
        return;
      }
      auto d = std::make_shared<Description>();
      d->file = file_index(full);
      d->append = flags.find("O_APPEND") != std::string::npos;
      if (flags.find("O_TRUNC") != std::string::npos)
        sizes_[static_cast<std::size_t>(d->file)] = 0;
      (*p.fds)[*ret] = d;
      count(p, d.get(), n);
      return;
    }
    if (n == "read" || n == "write" || n == "readv" || n == "writev") {
      auto d = described(p, arg(0));
      data(p, d.get(), n[0] == 'r' ? OpKind::Read : OpKind::Write, l, d ? d->pos : 0, true,
           ret.value_or(-1));
      return;
    }
    if (n == "pread64" || n == "pwrite64" || n == "pread" || n == "pwrite" || n == "preadv" ||
        n == "pwritev" || n == "preadv2" || n == "pwritev2") {
      auto d = described(p, arg(0));
      const auto off = whole_integer(arg(3)); // the offset: the 4th argument of each of them
      const std::int64_t offset = off.value_or(-1);
      const bool at_pos = offset == -1 && (n == "preadv2" || n == "pwritev2");
      if (!off || (offset < 0 && !at_pos)) {
        count(p, d.get(), n + " (offset not read)");
        return;
      }
      data(p, d.get(), n[1] == 'r' ? OpKind::Read : OpKind::Write, l,
           at_pos ? (d ? d->pos : 0) : offset, at_pos, ret.value_or(-1));
      return;
    }
    if (n == "copy_file_range" || n == "sendfile" || n == "sendfile64") {
      const bool copy = n == "copy_file_range";
      auto in = described(p, arg(copy ? 0 : 1));
      auto out = described(p, arg(copy ? 2 : 0));
      const auto in_off = bracketed(arg(copy ? 1 : 2));
      const auto out_off = copy ? bracketed(arg(3)) : std::nullopt;
      const std::int64_t moved = ret.value_or(-1);
      data(p, in.get(), OpKind::Read, l, in_off ? *in_off : (in ? in->pos : 0), !in_off, moved);
      data(p, out.get(), OpKind::Write, l, out_off ? *out_off : (out ? out->pos : 0), !out_off,
           moved);
      return;
    }
    if (n == "lseek" || n == "llseek" || n == "_llseek") {
      auto d = described(p, arg(0));
      if (!d)
        return;
      count(p, d.get(), n);
      if (n == "_llseek") {
        if (const auto to = bracketed(arg(3)); to && ret && *ret == 0)
          d->pos = *to;
      } else if (ret && *ret >= 0) {
        d->pos = *ret;
      }
      return;
    }
    if (n == "dup" || n == "dup2" || n == "dup3" || (n == "fcntl" && (starts(arg(1), "F_DUPFD")))) {
      auto d = described(p, arg(0));
      if (!d || !ret || *ret < 0)
        return;
      (*p.fds)[*ret] = d;
      count(p, d.get(), n);
      return;
    }
    if (n == "close") {
      const auto fd = parse_fd(arg(0));
      if (!fd)
        return;
      auto it = p.fds->find(fd->fd);
      if (it == p.fds->end())
        return;
      count(p, it->second.get(), n);
      p.fds->erase(it);
      return;
    }
    if (n == "clone" || n == "clone3" || n == "fork" || n == "vfork") {
      if (!ret || *ret <= 0)
        return;
      const bool thread = l.args.find("CLONE_THREAD") != std::string::npos;
      const bool shared = l.args.find("CLONE_FILES") != std::string::npos;
      auto &child = processes_[*ret];
      if (thread) {
        child = proc; // one process: one rank, one descriptor table
        return;
      }
      if (!child)
        child = std::make_shared<Process>();
      child->cwd = p.cwd;
      if (shared) {
        child->fds = p.fds;
      } else {
        auto copy = std::make_shared<FdTable>(*p.fds);
        for (const auto &kv : *child->fds) // what the child opened before the parent's return
          (*copy)[kv.first] = kv.second;
        child->fds = copy;
      }
      return;
    }
    if (n == "mmap" || n == "mmap2") {
      auto d = described(p, arg(4));
      count(p, d.get(), n);
      return;
    }
    if (n == "chdir") {
      if (const auto path = unquote(arg(0)); path && ret && *ret == 0)
        p.cwd = resolve(p, nullptr, *path);
      return;
    }
    // Any other call on a descriptor of a wanted file (fsync, ftruncate, fstat, fadvise64, ...),
    // or naming a wanted file by its path (stat, unlink, rename, ...).
    if (!args.empty()) {
      if (const auto fd = parse_fd(args[0]); fd && fd->fd >= 0) {
        const auto it = p.fds->find(fd->fd);
        if (it != p.fds->end())
          count(p, it->second.get(), n + (ret && *ret < 0 ? " (failed)" : ""));
        return;
      }
      const auto dir = parse_fd(args[0]);
      for (const auto &a : args)
        if (const auto path = unquote(a)) {
          const auto it = files_.find(resolve(p, dir ? &*dir : nullptr, *path));
          if (it != files_.end() && sink_.wants(static_cast<std::uint32_t>(it->second)))
            sink_.other(static_cast<std::uint32_t>(it->second), p.rank,
                        n + (ret && *ret < 0 ? " (failed)" : ""), lines_.number());
        }
    }
  }

  TraceLines &lines_;
  TraceSink &sink_;
  std::map<std::int64_t, std::shared_ptr<Process>> processes_;
  std::map<std::int64_t, Pending> pending_;
  std::map<std::string, std::int64_t> files_;
  std::vector<std::int64_t> sizes_; // per file: the end of its furthest write (O_APPEND)
  std::int64_t next_rank_ = 0;
  bool origin_set_ = false;
  std::int64_t origin_s_ = 0, origin_us_ = 0;
};

} // namespace

void read_strace(TraceLines &lines, TraceSink &sink) { StraceReader(lines, sink).run(); }

} // namespace pio::replay
