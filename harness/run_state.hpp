#pragma once
/// What one run shares across its blocks and tests (runner internals).

#include <mpi.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "config.hpp"
#include "pio/context.hpp"
#include "pio/error.hpp"
#include "pio/results.hpp"
#include "reporter.hpp"
#include "run.hpp"
#include "test_files.hpp"

namespace pio::harness {

/// The harness's services to modules: files a module creates itself are claimed like test
/// files and deleted after cleanup_module.
class FileServices : public Services {
public:
  FileServices(TestFiles &files, std::set<std::string> &kept) : files_(&files), kept_(&kept) {}
  void claim_file(const std::string &path) override {
    files_->claim(path);
    kept_->insert(path);
  }

private:
  TestFiles *files_;
  std::set<std::string> *kept_;
};

/// The state of a run.
struct RunState {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  const RunOptions *options = nullptr;
  const Config *config = nullptr;
  TestFiles *files = nullptr;
  bool any_failure = false;
  std::set<std::string> kept; ///< files kept between a module's tests or claimed by it (this rank)
  RunResult result;           ///< rank 0 only
  std::vector<std::unique_ptr<Reporter>> reporters; ///< rank 0 only

  /// Deletes the files kept for or claimed by the module, once every rank is done with them.
  void release_kept() {
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
    if (rank != 0)
      return true;
    bool ok = true;
    for (auto &r : reporters) {
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
