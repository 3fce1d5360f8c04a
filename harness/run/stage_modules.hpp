#pragma once
/// Node-local copies of the module objects a run needs (the StageModules directive; what Spindle
/// and Slurm's sbcast do): rank 0 reads each object once, the bytes are broadcast to each node's
/// first rank, which writes them to a directory it creates under the node-local directory, and
/// the node's ranks open the copies (the loader's ELF, API and ABI checks apply to them).

#include <mpi.h>

#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "load/catalog.hpp"

namespace pio::harness {

/// The copies on this node; the node's first rank removes them and their directory when this
/// is destroyed (and the process guard does on a signal: they are tracked as created paths).
class StagedModules {
public:
  StagedModules() = default;
  StagedModules(const StagedModules &) = delete;
  StagedModules &operator=(const StagedModules &) = delete;
  ~StagedModules();

  /// Collective over comm, when config names StageModules (else nothing): copies the listed
  /// objects that provide the config's blocks' modules, and every backend's object (a block's
  /// backend may be its module's default; the plan may look up another backend's option), and
  /// points catalog at the copies. Throws
  /// ConfigError at the StageModules line if the directory cannot be made or written; every rank
  /// takes part in every collective first, so an error on one node never leaves another waiting.
  void stage(MPI_Comm comm, const Config &config, Catalog &catalog);

  /// --check, which does no I/O: checks, without writing anything, that the StageModules
  /// directory is one every rank could stage into (an existing, writable directory); throws
  /// ConfigError at its line as stage() would. Collective over comm.
  static void check(MPI_Comm comm, const Config &config);

  /// The directory of this node's copies ("" when nothing was staged).
  const std::string &dir() const { return dir_; }

private:
  std::string dir_;                ///< made here (the node's first rank) or told by it
  std::vector<std::string> files_; ///< the copies this process wrote (the node's first rank)
  bool owner_ = false;             ///< this process made dir_ and removes it
};

} // namespace pio::harness
