#pragma once
/// The results document (docs/reference/results.md): built on rank 0, rewritten atomically during
/// the run so that completed tests survive a crash of a later one. The CSV file follows the same
/// rules.

#include <mpi.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pio/results.hpp"
#include "report/host_survey.hpp"

namespace pio::harness {

/// Run-level provenance: schema and tool versions, date, command line, MPI library, process
/// count and hosts, the file-system type of the test file, and the environment that affects
/// MPI-IO with the batch job, the I/O libraries of the backends the run uses
/// (`backend_libraries`, provenance.hpp), and each node's conditions. Collective on comm; filled
/// in on rank 0 only; `place` receives this rank's place on its node.
void fill_provenance(MPI_Comm comm, const std::vector<std::string> &command_line,
                     const std::string &test_file,
                     const std::map<std::string, std::string> &backend_libraries, RunResult &run,
                     NodePlace *place = nullptr);

/// The file-system type of the directory holding path ("ext4", "tmpfs", "nfs", ... or "0x..").
std::string file_system_type(const std::string &path);

/// The results file of a run (docs/reference/reliability.md): checked before any test runs,
/// rewritten atomically through a temporary that only this run uses, and never replacing a file
/// this run did not create (unless overwrite), a symbolic link or a directory.
class ResultsFile {
public:
  /// Checks path now: its directory exists and is writable, path is not a symbolic link or a
  /// directory, and an existing file is refused unless overwrite. Throws pio::Error; `what`
  /// names the file in messages and `fix` says how to name another.
  ResultsFile(std::string path, bool overwrite, std::string what = "results file",
              std::string fix = "set ResultsFile (or --results) to a new file in a writable "
                                "directory");
  /// Writes doc (bytes that are not UTF-8, e.g. in a Latin-1 config comment, are replaced,
  /// never fatal) to a new temporary next to the file and renames it over the file. The
  /// temporary is removed on any failure. Throws pio::Error naming the path.
  /// Returns the bytes written.
  std::size_t save(const nlohmann::json &doc);
  /// The same for a text document.
  std::size_t save_text(const std::string &text);
  /// The path written.
  const std::string &path() const { return path_; }

private:
  void check_target() const;
  std::string path_;
  bool overwrite_;
  std::string what_, fix_;
  bool ours_ = false; ///< the file now at path_ is the one this run last wrote
  unsigned long long dev_ = 0, ino_ = 0;
  int saves_ = 0;
};

} // namespace pio::harness
