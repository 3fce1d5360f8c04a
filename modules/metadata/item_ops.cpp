#include "item_ops.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "pio/error.hpp"

namespace pio::metadata {

namespace {

[[noreturn]] void fail(const char *call, const char *path, int err) {
  throw Error(std::string(call) + " " + path + ": " + std::strerror(err),
              "check the test directory's file system (space, inodes, permissions); nothing "
              "else may write into the test directory during the run");
}

void close_checked(int fd, const char *path) {
  if (::close(fd) != 0)
    fail("close", path, errno);
}

} // namespace

void create_item(const char *path, const char *data, std::int64_t size) {
  const int fd = ::open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd < 0)
    fail("open(O_CREAT|O_EXCL)", path, errno);
  std::int64_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, static_cast<size_t>(size - done));
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      fail("write", path, err);
    }
    done += n;
  }
  close_checked(fd, path);
}

void stat_item(const char *path, std::int64_t size) {
  struct stat st;
  if (::stat(path, &st) != 0)
    fail("stat", path, errno);
  if (!S_ISREG(st.st_mode) || st.st_size != size)
    throw Error(std::string("stat ") + path + ": " + std::to_string(st.st_size) +
                    " bytes, expected a regular file of " + std::to_string(size),
                "nothing else may write into the test directory during the run");
}

void read_item(const char *path, char *buf, std::int64_t size) {
  const int fd = ::open(path, O_RDONLY);
  if (fd < 0)
    fail("open(O_RDONLY)", path, errno);
  std::int64_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, buf + done, static_cast<size_t>(size - done));
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      if (n == 0)
        throw Error(std::string("read ") + path + ": " + std::to_string(done) + " of " +
                        std::to_string(size) + " bytes",
                    "nothing else may write into the test directory during the run");
      fail("read", path, err);
    }
    done += n;
  }
  close_checked(fd, path);
}

void remove_item(const char *path) {
  if (::unlink(path) != 0)
    fail("unlink", path, errno);
}

bool remove_if_present(const char *path) { return ::unlink(path) == 0 || errno == ENOENT; }

namespace {

[[noreturn]] void fail_mpi(const char *call, const char *path, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw Error(std::string(call) + " " + path + ": " + std::string(text, static_cast<size_t>(len)),
              "check the test directory's file system (space, inodes, permissions); nothing "
              "else may write into the test directory during the run");
}

/// One MPI-IO transfer of `size` bytes at offset 0 (in pieces below 2 GiB), then the close.
void transfer_and_close(MPI_File fh, const char *path, char *buf, std::int64_t size, bool write) {
  std::int64_t done = 0;
  int rc = MPI_SUCCESS;
  while (done < size && rc == MPI_SUCCESS) {
    const int n = static_cast<int>(std::min<std::int64_t>(size - done, 1 << 30));
    MPI_Status st;
    rc = write ? MPI_File_write_at(fh, done, buf + done, n, MPI_BYTE, &st)
               : MPI_File_read_at(fh, done, buf + done, n, MPI_BYTE, &st);
    int got = 0;
    if (rc == MPI_SUCCESS && (MPI_Get_count(&st, MPI_BYTE, &got), got != n)) {
      MPI_File_close(&fh);
      throw Error(std::string(write ? "MPI_File_write_at " : "MPI_File_read_at ") + path + ": " +
                      std::to_string(done + got) + " of " + std::to_string(size) + " bytes",
                  "nothing else may write into the test directory during the run");
    }
    done += n;
  }
  if (rc != MPI_SUCCESS) {
    MPI_File_close(&fh);
    fail_mpi(write ? "MPI_File_write_at" : "MPI_File_read_at", path, rc);
  }
  if ((rc = MPI_File_close(&fh)) != MPI_SUCCESS)
    fail_mpi("MPI_File_close", path, rc);
}

} // namespace

void create_item_mpiio(const char *path, const char *data, std::int64_t size) {
  MPI_File fh = MPI_FILE_NULL;
  const int rc = MPI_File_open(
      MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS)
    fail_mpi("MPI_File_open(CREATE|EXCL)", path, rc);
  transfer_and_close(fh, path, const_cast<char *>(data), size, true);
}

void read_item_mpiio(const char *path, char *buf, std::int64_t size) {
  MPI_File fh = MPI_FILE_NULL;
  const int rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS)
    fail_mpi("MPI_File_open(RDONLY)", path, rc);
  transfer_and_close(fh, path, buf, size, false);
}

void remove_item_mpiio(const char *path) {
  const int rc = MPI_File_delete(path, MPI_INFO_NULL);
  if (rc != MPI_SUCCESS)
    fail_mpi("MPI_File_delete", path, rc);
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
