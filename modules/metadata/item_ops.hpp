#pragma once
/// One item operation of each mdtest phase, in the POSIX calls mdtest makes (mdtest in the IOR
/// 3.3 distribution: create_remove_items_helper, mdtest_stat, mdtest_read): each throws
/// pio::Error naming the call, the path and the system's reason.

#include <cstdint>
#include <string>
#include <vector>

#include "tree.hpp"

namespace pio::metadata {

/// open(O_CREAT | O_EXCL | O_WRONLY), write `size` bytes from data when size > 0, close.
void create_item(const char *path, const char *data, std::int64_t size);
/// stat; the item must be a regular file of `size` bytes.
void stat_item(const char *path, std::int64_t size);
/// open(O_RDONLY), read `size` bytes into buf when size > 0 (all of them), close.
void read_item(const char *path, char *buf, std::int64_t size);
/// unlink.
void remove_item(const char *path);
/// unlink if it exists (cleanup: ENOENT is fine); false on any other failure.
bool remove_if_present(const char *path);

/// The same operations through MPI-IO (ItemCalls mpiio; IOR's MPIIO backend of mdtest -a
/// MPIIO): MPI_File_open(MPI_COMM_SELF, CREATE | EXCL | WRONLY), MPI_File_write_at(0) of `size`
/// bytes when size > 0, MPI_File_close.
void create_item_mpiio(const char *path, const char *data, std::int64_t size);
/// MPI_File_open(MPI_COMM_SELF, RDONLY), MPI_File_read_at(0) of `size` bytes, MPI_File_close.
void read_item_mpiio(const char *path, char *buf, std::int64_t size);
/// MPI_File_delete.
void remove_item_mpiio(const char *path);

/// Builds item paths without allocating inside the timed loop: the tree's directory names
/// are made once, each path is printed into one buffer.
class ItemPaths {
public:
  /// Paths of `owner`'s items in geometry g.
  ItemPaths(const Geometry &g, int owner);
  /// The path of item i (valid until the next call).
  const char *path(std::int64_t item);

private:
  int owner_;
  std::string prefix_;
  std::vector<std::string> dirs_;
  std::vector<char> buf_;
};

} // namespace pio::metadata
