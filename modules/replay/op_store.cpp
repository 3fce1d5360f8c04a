// The replay's operations within a memory budget (op_store.hpp).
#include "op_store.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <queue>

#include <fcntl.h>
#include <unistd.h>

#include "pio/error.hpp"

namespace pio::replay {

std::string spill_directory() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

/// An unlinked temporary file, read and written at offsets.
class OpStore::File {
public:
  explicit File(const std::string &dir) : dir_(dir) {
    std::string name = dir + "/pio-replay-XXXXXX";
    fd_ = mkstemp(name.data());
    if (fd_ < 0)
      throw Error("cannot create a spill file in " + dir + ": " + std::strerror(errno),
                  "the trace's operations exceed TraceMemory and go to disk there: set TMPDIR to "
                  "a writable directory with room, or raise TraceMemory");
    unlink(name.c_str()); // gone with the descriptor, whatever ends the process
  }
  ~File() { close(fd_); }
  File(const File &) = delete;
  File &operator=(const File &) = delete;

  void write_at(const void *p, std::size_t n, std::int64_t at) {
    const auto *b = static_cast<const char *>(p);
    while (n > 0) {
      const ssize_t w = pwrite(fd_, b, n, at);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        throw Error("cannot write the spill file in " + dir_ + ": " + std::strerror(errno),
                    "set TMPDIR to a directory with room for the trace's operations (40 bytes "
                    "each), or raise TraceMemory");
      b += w;
      n -= static_cast<std::size_t>(w);
      at += w;
    }
  }
  void read_at(void *p, std::size_t n, std::int64_t at) const {
    auto *b = static_cast<char *>(p);
    while (n > 0) {
      const ssize_t r = pread(fd_, b, n, at);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        throw Error("cannot read the spill file in " + dir_ + ": " +
                        (r == 0 ? std::string("it is shorter than written") : std::strerror(errno)),
                    "check the file system of TMPDIR");
      b += r;
      n -= static_cast<std::size_t>(r);
      at += r;
    }
  }

private:
  std::string dir_;
  int fd_ = -1;
};

OpStore::OpStore(std::int64_t budget_bytes, std::string spill_dir)
    : chunk_(
          std::max<std::int64_t>(1024, budget_bytes / static_cast<std::int64_t>(sizeof(Record)))),
      dir_(std::move(spill_dir)) {}

OpStore::~OpStore() = default;

void OpStore::add(std::int64_t trace_rank, const StoredOp &op) {
  if (pending_.capacity() == 0)
    pending_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(chunk_, 4096)));
  pending_.push_back(Record{trace_rank, added_++, op});
  if (static_cast<std::int64_t>(pending_.size()) >= chunk_)
    spill_chunk();
}

void OpStore::spill_chunk() {
  if (pending_.empty())
    return;
  if (!spill_)
    spill_ = std::make_unique<File>(dir_);
  const std::int64_t first = added_ - static_cast<std::int64_t>(pending_.size());
  spill_->write_at(pending_.data(), pending_.size() * sizeof(Record),
                   first * static_cast<std::int64_t>(sizeof(Record)));
  pending_.clear();
}

namespace {

template <class R> bool before(const R &a, const R &b) {
  if (a.rank != b.rank)
    return a.rank < b.rank;
  if (a.op.start != b.op.start)
    return a.op.start < b.op.start;
  return a.seq < b.seq;
}

} // namespace

void OpStore::finish(const std::function<std::int64_t(std::int64_t)> &map, int run_ranks) {
  begin_.assign(static_cast<std::size_t>(run_ranks) + 1, 0);
  const auto to_run_rank = [&](Record &r) {
    const std::int64_t m = map(r.rank);
    r.rank = m >= 0 && m < run_ranks ? m : run_ranks; // run_ranks: dropped (sorts last)
  };
  if (!spill_) {
    for (auto &r : pending_)
      to_run_rank(r);
    std::sort(pending_.begin(), pending_.end(),
              [](const Record &a, const Record &b) { return before(a, b); });
    for (const auto &r : pending_) {
      if (r.rank >= run_ranks)
        break;
      memory_.push_back(r.op);
      ++begin_[static_cast<std::size_t>(r.rank) + 1];
    }
    std::vector<Record>().swap(pending_);
  } else {
    spill_chunk();
    // Each chunk of the raw file, mapped and sorted in place, is a sorted run.
    std::vector<Record> chunk;
    for (std::int64_t first = 0; first < added_; first += chunk_) {
      const std::int64_t n = std::min(chunk_, added_ - first);
      chunk.resize(static_cast<std::size_t>(n));
      const auto at = first * static_cast<std::int64_t>(sizeof(Record));
      spill_->read_at(chunk.data(), chunk.size() * sizeof(Record), at);
      for (auto &r : chunk)
        to_run_rank(r);
      std::sort(chunk.begin(), chunk.end(),
                [](const Record &a, const Record &b) { return before(a, b); });
      spill_->write_at(chunk.data(), chunk.size() * sizeof(Record), at);
    }
    std::vector<Record>().swap(chunk);
    merge_runs(run_ranks);
  }
  for (std::size_t r = 1; r < begin_.size(); ++r)
    begin_[r] += begin_[r - 1];
}

void OpStore::merge_runs(int run_ranks) {
  // A k-way merge of the sorted runs into the final file, within the budget: each run is read
  // through a buffer of the budget's k-th part.
  const std::int64_t runs = (added_ + chunk_ - 1) / chunk_;
  const std::int64_t buffer = std::max<std::int64_t>(64, chunk_ / std::max<std::int64_t>(1, runs));
  struct Run {
    std::int64_t next, end; // records of the run not yet buffered
    std::vector<Record> buf;
    std::size_t pos = 0;
  };
  std::vector<Run> run(static_cast<std::size_t>(runs));
  const auto refill = [&](Run &r) {
    const std::int64_t n = std::min(buffer, r.end - r.next);
    r.buf.resize(static_cast<std::size_t>(n));
    if (n > 0)
      spill_->read_at(r.buf.data(), r.buf.size() * sizeof(Record),
                      r.next * static_cast<std::int64_t>(sizeof(Record)));
    r.next += n;
    r.pos = 0;
  };
  const auto later = [&](std::int64_t a, std::int64_t b) {
    const Run &x = run[static_cast<std::size_t>(a)], &y = run[static_cast<std::size_t>(b)];
    return before(y.buf[y.pos], x.buf[x.pos]);
  };
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, decltype(later)> heap(later);
  for (std::int64_t k = 0; k < runs; ++k) {
    Run &r = run[static_cast<std::size_t>(k)];
    r.next = k * chunk_;
    r.end = std::min(added_, r.next + chunk_);
    refill(r);
    if (!r.buf.empty())
      heap.push(k);
  }
  final_ = std::make_unique<File>(dir_);
  std::vector<StoredOp> out;
  out.reserve(static_cast<std::size_t>(buffer));
  std::int64_t written = 0;
  const auto flush = [&] {
    final_->write_at(out.data(), out.size() * sizeof(StoredOp),
                     written * static_cast<std::int64_t>(sizeof(StoredOp)));
    written += static_cast<std::int64_t>(out.size());
    out.clear();
  };
  while (!heap.empty()) {
    const std::int64_t k = heap.top();
    heap.pop();
    Run &r = run[static_cast<std::size_t>(k)];
    const Record &rec = r.buf[r.pos];
    if (rec.rank >= run_ranks)
      continue; // dropped, and every record after it in this run too (they sort last)
    out.push_back(rec.op);
    ++begin_[static_cast<std::size_t>(rec.rank) + 1];
    if (static_cast<std::int64_t>(out.size()) >= buffer)
      flush();
    if (++r.pos == r.buf.size())
      refill(r);
    if (!r.buf.empty())
      heap.push(k);
  }
  flush();
  spill_.reset(); // the raw runs are done with
  // The read cache: a quarter of the budget, at least 4 blocks.
  const auto slots = static_cast<std::size_t>(
      std::clamp<std::int64_t>(chunk_ * static_cast<std::int64_t>(sizeof(Record)) / 4 /
                                   (kBlock * static_cast<std::int64_t>(sizeof(StoredOp))),
                               4, 1024));
  cached_block_.assign(slots, -1);
  cache_.assign(slots, {});
}

std::int64_t OpStore::count(int r) const {
  if (r < 0 || static_cast<std::size_t>(r) + 1 >= begin_.size())
    return 0;
  return begin_[static_cast<std::size_t>(r) + 1] - begin_[static_cast<std::size_t>(r)];
}

StoredOp OpStore::at(int r, std::int64_t i) const {
  const std::int64_t g = begin_.at(static_cast<std::size_t>(r)) + i;
  if (!final_)
    return memory_.at(static_cast<std::size_t>(g));
  const std::int64_t block = g / kBlock;
  const auto slot = static_cast<std::size_t>(block % static_cast<std::int64_t>(cache_.size()));
  if (cached_block_[slot] != block) {
    const std::int64_t first = block * kBlock;
    const std::int64_t n = std::min(kBlock, begin_.back() - first);
    cache_[slot].resize(static_cast<std::size_t>(n));
    final_->read_at(cache_[slot].data(), cache_[slot].size() * sizeof(StoredOp),
                    first * static_cast<std::int64_t>(sizeof(StoredOp)));
    cached_block_[slot] = block;
  }
  return cache_[slot][static_cast<std::size_t>(g - block * kBlock)];
}

} // namespace pio::replay
