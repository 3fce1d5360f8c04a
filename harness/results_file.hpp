#pragma once
/// The results document (docs/results.md): built on rank 0, rewritten atomically after every test
/// so that completed tests survive a crash of a later one.

#include <mpi.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pio/results.hpp"

namespace pio::harness {

/// Run-level provenance: schema and tool versions, date, command line, MPI library, process
/// count and hosts, and the file-system type of the test file. Collective on comm; filled in
/// on rank 0 only.
void fill_provenance(MPI_Comm comm, const std::vector<std::string> &command_line,
                     const std::string &test_file, RunResult &run);

/// The file-system type of the directory holding path ("ext4", "tmpfs", "nfs", ... or "0x..").
std::string file_system_type(const std::string &path);

/// The results file of a run (docs/reliability.md): checked before any test runs, rewritten
/// atomically through a temporary that only this run uses, and never replacing a file this run
/// did not create (unless overwrite), a symbolic link or a directory.
class ResultsFile {
public:
  /// Checks path now: its directory exists and is writable, path is not a symbolic link or a
  /// directory, and an existing file is refused unless overwrite. Throws pio::Error.
  ResultsFile(std::string path, bool overwrite);
  /// Writes doc (bytes that are not UTF-8, e.g. in a Latin-1 config comment, are replaced,
  /// never fatal) to a new temporary next to the file and renames it over the file. The
  /// temporary is removed on any failure. Throws pio::Error naming the path.
  void save(const nlohmann::json &doc);
  /// The path written.
  const std::string &path() const { return path_; }

private:
  void check_target() const;
  std::string path_;
  bool overwrite_;
  bool ours_ = false; ///< the file now at path_ is the one this run last wrote
  unsigned long long dev_ = 0, ino_ = 0;
  int saves_ = 0;
};

} // namespace pio::harness
