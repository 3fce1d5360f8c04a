#pragma once
/// What one run shares across its blocks and tests (runner internals).

#include <mpi.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "guard/owned_files.hpp"
#include "pio/context.hpp"
#include "pio/error.hpp"
#include "pio/results.hpp"
#include "plan/file_chains.hpp"
#include "report/host_survey.hpp"
#include "report/node_conditions.hpp"
#include "report/progress_reporter.hpp"
#include "report/reporter.hpp"
#include "report/unit_listener.hpp"
#include "run/run.hpp"

namespace pio::harness {

/// The harness's services to modules: files a module creates itself are claimed like test
/// files and deleted after cleanup_module. A directory of items is claimed by the block's rank 0;
/// the other ranks' claim_tree notes that they fill it (Services::claim_tree).
class FileServices : public Services {
public:
  FileServices(OwnedFiles &files, std::set<std::string> &kept, int block_rank)
      : files_(&files), kept_(&kept), block_rank_(block_rank) {}
  void claim_file(const std::string &path) override {
    files_->claim(path);
    kept_->insert(path);
  }
  void claim_tree(const std::string &path, const TreeRules &rules) override {
    if (block_rank_ == 0)
      files_->claim(path, &rules);
    else
      files_->join(path);
    kept_->insert(path);
  }

private:
  OwnedFiles *files_;
  std::set<std::string> *kept_;
  int block_rank_;
};

/// The ranks one block runs on: the run's, or its first Processes ranks (rank 0 of the run is
/// rank 0 of every block). A value: each block gets its own, the run's stays as it was.
struct BlockRanks {
  MPI_Comm comm = MPI_COMM_NULL; ///< the block's communicator
  int rank = 0;                  ///< this rank in it
  int size = 1;                  ///< its size
  MPI_Comm node = MPI_COMM_NULL; ///< the block's ranks on this node (rank 0: the node's leader)
  /// ReadShift: the block's ranks renumbered for the module (rank r is r + ReadShift); comm
  /// itself without a shift.
  MPI_Comm module = MPI_COMM_NULL;
};

/// The state of a run.
struct RunState {
  BlockRanks run;       ///< every rank of the run
  NodePlace node;       ///< this rank's node: whether it leads it, and its conditions at the start
  NodeSample run_start; ///< the node leader's counters at the run's start (swapping)
  const RunOptions *options = nullptr;
  const Config *config = nullptr;
  OwnedFiles *files = nullptr;
  bool any_failure = false;
  std::set<std::string> kept; ///< files kept between a module's tests or claimed by it (this rank)
  FileChains chains;          ///< the chains of blocks sharing files (FilesFrom), as they run
  RunResult result;           ///< rank 0 only
  std::vector<std::unique_ptr<Reporter>> owned_reporters; ///< rank 0: the default reporters
  std::vector<Reporter *> reporters;    ///< rank 0: every reporter told, the caller's included
  UnitListener *listener = nullptr;     ///< rank 0: told after every work unit (live progress)
  ProgressReporter *progress = nullptr; ///< rank 0: the live progress, told the run's plan
  int blocks_scheduled = 0; ///< block runs in the run: blocks x Rounds (plan/rounds.hpp)

  /// Deletes the files kept for or claimed by the module, once every rank of the block (comm)
  /// is done with them.
  void release_kept(MPI_Comm comm) {
    MPI_Barrier(comm);
    for (const auto &p : kept)
      files->release(p);
    kept.clear();
    MPI_Barrier(comm);
  }

  /// Calls f(reporter) for every reporter (rank 0 only). A reporter that fails (a full disk
  /// under the CSV file) is reported on the error stream (a warning during the run, an error
  /// at its end) and the other reporters go on. Returns false if any reporter failed.
  template <class F> bool report(F &&f, const char *level = "warning") {
    if (run.rank != 0)
      return true;
    bool ok = true;
    for (Reporter *r : reporters) {
      try {
        f(*r);
      } catch (const Error &e) {
        ok = false;
        *options->err << "pio-harness: " << level << ": " << e.what() << " (fix: " << e.hint()
                      << ")\n";
      } catch (const std::exception &e) {
        ok = false;
        *options->err << "pio-harness: " << level << ": " << e.what() << "\n";
      }
    }
    return ok;
  }
};

} // namespace pio::harness
