#pragma once
/// Helpers for Catch2 tests that run under mpiexec -n 1, 2, 4.

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/run.hpp"

namespace pio::test {

/// Rank in MPI_COMM_WORLD.
int rank();
/// Size of MPI_COMM_WORLD.
int size();
/// True on every rank only if `ok` is true on every rank. REQUIRE(all_ranks(x)), never REQUIRE(x),
/// so that one rank's failure fails all ranks instead of hanging them.
bool all_ranks(bool ok);

/// Runs checks() on rank 0 only (where the results document lives) and returns, on every rank,
/// whether it returned true without throwing. Use CHECK inside and REQUIRE(on_root(...)) outside.
bool on_root(const std::function<bool()> &checks);

/// A scratch directory (same path on all ranks), removed with its contents on destruction.
class TempDir {
public:
  TempDir();
  /// A scratch directory under `base` (e.g. /dev/shm for tmpfs, /var/tmp for a disk).
  explicit TempDir(const std::string &base);
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  /// The directory path.
  const std::string &path() const { return path_; }
  /// path() + "/" + name.
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

/// Writes text to path (rank 0 only) and waits for all ranks.
void write_text(const std::string &path, const std::string &text);
/// Reads a whole file as bytes (any rank). Throws if it cannot be opened.
std::vector<std::uint8_t> read_bytes(const std::string &path);
/// True if path exists.
bool exists(const std::string &path);

/// The directory the build puts module shared objects in.
std::string module_dir();

/// Result of run_config: the harness's exit code, its results, and what it printed.
struct Ran {
  int exit_code = 0;
  nlohmann::json results; ///< the JSON results document (rank 0)
  RunResult run;          ///< the typed results (rank 0)
  std::string out; ///< stdout text (rank 0)
  std::string err; ///< stderr text (this rank)
};

/// Writes `config_text` to dir/name.conf and runs the harness on it in-process, with the
/// build's module directory, results going to dir/name.json. keep_files keeps test files.
Ran run_config(const TempDir &dir, const std::string &name, const std::string &config_text,
               bool keep_files = false, bool overwrite = false);

/// Like run_config, with every option of the run settable (config_path, module_dirs,
/// results_path, out and err are filled in unless set).
Ran run_config_with(const TempDir &dir, const std::string &name, const std::string &config_text,
                    harness::RunOptions options);

} // namespace pio::test
