#include "mpi_test.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "report/json_reporter.hpp"

namespace pio::test {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

bool all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

bool on_root(const std::function<bool()> &checks) {
  bool ok = true;
  if (rank() == 0) {
    try {
      ok = checks();
    } catch (const std::exception &e) {
      std::fprintf(stderr, "on_root: exception: %s\n", e.what());
      ok = false;
    }
  }
  return all_ranks(ok);
}

TempDir::TempDir()
    : TempDir(std::getenv("PIO_TEST_TMPDIR") ? std::getenv("PIO_TEST_TMPDIR") : "/tmp") {}

TempDir::TempDir(const std::string &base) {
  char buf[4096] = {0};
  if (rank() == 0) {
    std::string tmpl = base + "/pio-test-XXXXXX";
    std::snprintf(buf, sizeof buf, "%s", tmpl.c_str());
    if (!mkdtemp(buf))
      buf[0] = '\0';
  }
  MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
  path_ = buf;
  if (path_.empty())
    throw std::runtime_error("cannot create a scratch directory");
}

TempDir::~TempDir() {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank() == 0) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
}

void write_text(const std::string &path, const std::string &text) {
  if (rank() == 0) {
    std::ofstream f(path);
    f << text;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

std::vector<std::uint8_t> read_bytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw std::runtime_error("cannot open " + path);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string module_dir() { return PIO_TEST_MODULE_DIR; }

Ran run_config(const TempDir &dir, const std::string &name, const std::string &config_text,
               bool keep_files, bool overwrite) {
  harness::RunOptions opt;
  opt.keep_files = keep_files;
  opt.overwrite = overwrite;
  return run_config_with(dir, name, config_text, opt);
}

namespace {

/// The test's own reporter (RunOptions::reporters): renders the finished run as the results
/// document, so tests read the JSON a run writes without the runner producing any.
class DocumentReporter : public harness::Reporter {
public:
  void run_finished(const RunResult &run) override {
    document = harness::to_json(run);
    finished = true;
  }
  nlohmann::json document;
  bool finished = false;
};

} // namespace

Ran run_config_with(const TempDir &dir, const std::string &name, const std::string &config_text,
                    harness::RunOptions opt) {
  const std::string conf = dir.file(name + ".conf");
  write_text(conf, config_text);
  std::ostringstream out, err;
  opt.config_path = conf;
  if (opt.module_dirs.empty())
    opt.module_dirs = {module_dir()};
  if (opt.results_path.empty())
    opt.results_path = dir.file(name + ".json");
  opt.out = &out;
  opt.err = &err;
  DocumentReporter document;
  opt.reporters.push_back(&document);
  auto outcome = harness::run(opt, MPI_COMM_WORLD);
  // As a results file: the document on rank 0 once the run started, the exit code elsewhere,
  // nothing at all when the run stopped before any I/O.
  int finished = document.finished ? 1 : 0;
  MPI_Bcast(&finished, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nlohmann::json results;
  if (finished)
    results = rank == 0 ? document.document : nlohmann::json{{"exit_code", outcome.exit_code}};
  return Ran{outcome.exit_code, std::move(results), std::move(outcome.run), out.str(), err.str()};
}

} // namespace pio::test
