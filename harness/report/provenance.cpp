// Provenance: timestamps, environment, batch job, config files (provenance.hpp).
#include "report/provenance.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>


extern char **environ;

namespace pio::harness {

namespace {

bool starts_with(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

/// The text of a readable regular file of at most 1 MiB, or nothing.
std::optional<std::string> small_file_text(const std::string &path) {
  struct stat st;
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > (1 << 20))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof())
    return std::nullopt;
  return text.str();
}

} // namespace

std::string utc_timestamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t secs = system_clock::to_time_t(now);
  const auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char date[32], out[48];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(out, sizeof out, "%s.%03dZ", date, static_cast<int>(ms));
  return out;
}

bool affects_mpi_io(const std::string &name) {
  return name == "ROMIO_HINTS" || starts_with(name, "MPICH_") || starts_with(name, "MPIR_CVAR_") ||
         starts_with(name, "ROMIO_") || starts_with(name, "HWLOC_");
}

void fill_environment(RunResult &run, char **env) {
  run.environment.clear();
  run.romio_hints_text.reset();
  run.batch_job.reset();
  std::string slurm, pbs;
  std::map<std::string, std::string> job; // the batch system's allocation variables
  for (char **e = env ? env : environ; e && *e; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string::npos)
      continue;
    const std::string name = entry.substr(0, eq), value = entry.substr(eq + 1);
    if (affects_mpi_io(name))
      run.environment[name] = value;
    else if (name == "SLURM_JOB_ID")
      slurm = value;
    else if (name == "PBS_JOBID")
      pbs = value;
    if (name.compare(0, 6, "SLURM_") == 0 || name.compare(0, 4, "PBS_") == 0)
      job[name] = value;
  }
  const auto text = [&](const char *a, const char *b) {
    auto it = job.find(a);
    if (it == job.end())
      it = job.find(b);
    return it == job.end() ? std::string() : it->second;
  };
  const auto count = [&](const char *a, const char *b) {
    const std::string t = text(a, b);
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos ? std::stoi(t) : 0;
  };
  if (const auto it = run.environment.find("ROMIO_HINTS"); it != run.environment.end())
    run.romio_hints_text = small_file_text(it->second);
  if (!slurm.empty())
    run.batch_job = BatchJob{"slurm",
                             slurm,
                             text("SLURM_JOB_NODELIST", "SLURM_NODELIST"),
                             count("SLURM_JOB_NUM_NODES", "SLURM_NNODES"),
                             count("SLURM_NTASKS", "SLURM_NPROCS"),
                             text("SLURM_JOB_PARTITION", "SLURM_JOB_PARTITION")};
  else if (!pbs.empty())
    run.batch_job = BatchJob{"pbs",
                             pbs,
                             "",
                             count("PBS_NUM_NODES", "PBS_NUM_NODES"),
                             count("PBS_NP", "PBS_NP"),
                             text("PBS_QUEUE", "PBS_QUEUE")};
}

void fill_io_libraries(RunResult &run,
                       const std::map<std::string, std::string> &backend_libraries) {
  run.io_libraries = backend_libraries;
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int n = 0;
  if (MPI_Get_library_version(text, &n) == MPI_SUCCESS) {
    // Its first line ("MPICH Version: 4.0.2"); the whole text is the results' mpi_library.
    const std::string all(text, static_cast<size_t>(n));
    run.io_libraries["mpi"] = all.substr(0, all.find('\n'));
  }
}

void fill_config_files(const std::vector<ConfigSource> &sources, RunResult &run) {
  run.config_files.clear();
  run.config_variables.clear();
  for (const auto &s : sources) {
    run.config_files.push_back(ConfigFile{s.path, s.included_from, s.raw});
    run.config_variables.insert(run.config_variables.end(), s.variables.begin(), s.variables.end());
  }
}

} // namespace pio::harness
