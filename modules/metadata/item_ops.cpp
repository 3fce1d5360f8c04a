// The item operations of the mdtest phases through the block's backend (item_ops.hpp).
#include "item_ops.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>

#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::metadata {

namespace {

const char *kHint = "check the test directory's file system (space, inodes, permissions); nothing "
                    "else may write into the test directory during the run";

/// Items are opened without MPI-IO hints.
const std::map<std::string, std::string> kNoHints;

/// `size` bytes at offset 0 of f moved through its interface, in transfers below 2 GiB; a short
/// one is an error naming the path.
void move_all(io::OpenFile &f, const char *path, char *buf, std::int64_t size, bool write) {
  for (std::int64_t done = 0; done < size;) {
    const std::int64_t n = std::min(size - done, kMaxBytesPerCall);
    const io::Extent at{done, n};
    io::Transfer t;
    t.direction = write ? io::Direction::Write : io::Direction::Read;
    t.buffer = buf + done;
    t.count = static_cast<int>(n);
    t.offset = done;
    t.extents = &at;
    t.extent_count = 1;
    t.count_moved = true;
    const std::int64_t got = f.io().start(t);
    if (got != n)
      throw Error(std::string(write ? "write " : "read ") + path + ": " +
                      std::to_string(done + got) + " of " + std::to_string(size) + " bytes",
                  "nothing else may write into the test directory during the run");
    done += n;
  }
}

} // namespace

void create_item(io::Backend &b, const char *path, const char *data, std::int64_t size) {
  const auto f =
      b.open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, kNoHints);
  move_all(*f, path, const_cast<char *>(data), size, true);
  f->close();
}

void stat_item(io::Backend &b, const char *path, std::int64_t size) {
  const auto st = b.stat(path);
  if (!st)
    throw Error(std::string("stat ") + path + ": " + std::strerror(ENOENT), kHint);
  if (st->type != io::FileStat::Type::File || st->size != size)
    throw Error(std::string("stat ") + path + ": " + std::to_string(st->size) +
                    " bytes, expected a regular file of " + std::to_string(size),
                "nothing else may write into the test directory during the run");
}

void read_item(io::Backend &b, const char *path, char *buf, std::int64_t size) {
  const auto f = b.open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, kNoHints);
  move_all(*f, path, buf, size, false);
  f->close();
}

void remove_item(io::Backend &b, const char *path) {
  if (!b.remove(path))
    throw Error(std::string("remove ") + path + ": " + std::strerror(ENOENT), kHint);
}

bool remove_if_present(io::Backend &b, const char *path) {
  try {
    b.remove(path);
    return true;
  } catch (const Error &) {
    return false;
  }
}

ItemPaths::ItemPaths(const Geometry &g, int owner)
    : owner_(owner), prefix_(g.rule(1, 0).item_prefix), dirs_(g.directories(owner)) {
  size_t longest = 0;
  for (const auto &d : dirs_)
    longest = std::max(longest, d.size());
  buf_.resize(longest + prefix_.size() + 64);
}

const char *ItemPaths::path(std::int64_t item) {
  // Item i lives in node i mod nodes (TreeRule::node_of); dirs_ holds the nodes in order.
  const std::string &dir =
      dirs_[static_cast<size_t>(item % static_cast<std::int64_t>(dirs_.size()))];
  std::snprintf(buf_.data(), buf_.size(), "%s/%s%d.%" PRId64, dir.c_str(), prefix_.c_str(), owner_,
                item);
  return buf_.data();
}

} // namespace pio::metadata
