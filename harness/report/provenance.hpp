#pragma once
/// Provenance of a run beyond the MPI library and hosts (docs/reference/results.md): timestamps,
/// the environment that affects MPI-IO, the batch job, and every config file with its ${VAR}s.

#include <map>
#include <string>
#include <vector>

#include "config/config_source.hpp"
#include "pio/results.hpp"

namespace pio::harness {

/// Now as ISO 8601 UTC with milliseconds: "2025-01-31T12:34:56.789Z".
std::string utc_timestamp();

/// Is an environment variable of this name one that affects MPI-IO (ROMIO_HINTS, MPICH_*,
/// MPIR_CVAR_*, ROMIO_*, HWLOC_*)?
bool affects_mpi_io(const std::string &name);

/// Fills run.environment, run.romio_hints_text and run.batch_job from `env` (NAME=value
/// strings, null-terminated; this process's environment by default).
void fill_environment(RunResult &run, char **env = nullptr);

/// Fills run.io_libraries: the I/O libraries in use and their versions: MPI's (the first line of
/// MPI_Get_library_version, "MPICH Version: 4.0.2") and `backend_libraries`, those of the
/// backends the run's blocks use (BackendInfo::library_versions: {"hdf5": "1.10.8"}).
void fill_io_libraries(RunResult &run, const std::map<std::string, std::string> &backend_libraries);

/// Fills run.config_files and run.config_variables from the files the config was read from.
void fill_config_files(const std::vector<ConfigSource> &sources, RunResult &run);

} // namespace pio::harness
