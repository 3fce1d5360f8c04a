#pragma once
/// One item operation of each mdtest phase (mdtest in the IOR 3.3 distribution:
/// create_remove_items_helper, mdtest_stat, mdtest_read) through the block's backend, as mdtest
/// makes them through its -a backend (Interface posix: open, write, close, unlink; Interface
/// mpiio: MPI_File_open on MPI_COMM_SELF, MPI_File_write_at, MPI_File_close, MPI_File_delete):
/// each throws pio::Error naming the call, the path and the reason.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/io/backend.hpp"
#include "tree.hpp"

namespace pio::metadata {

/// Opens path (MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, on MPI_COMM_SELF), writes
/// `size` bytes from data at offset 0 when size > 0, closes it.
void create_item(io::Backend &b, const char *path, const char *data, std::int64_t size);
/// Stats path; the item must be a regular file of `size` bytes.
void stat_item(io::Backend &b, const char *path, std::int64_t size);
/// Opens path (MPI_MODE_RDONLY), reads `size` bytes into buf when size > 0 (all of them), closes
/// it.
void read_item(io::Backend &b, const char *path, char *buf, std::int64_t size);
/// Removes the item (it must exist).
void remove_item(io::Backend &b, const char *path);
/// Removes the item if it exists (cleanup: none is fine); false on any other failure.
bool remove_if_present(io::Backend &b, const char *path);

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
