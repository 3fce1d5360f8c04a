#pragma once
/// The results document (docs/results.md): built on rank 0, rewritten atomically after every test so
/// that completed tests survive a crash of a later one.

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

/// Writes doc to path via a temporary file and rename, so the file is always valid JSON
/// (bytes that are not UTF-8, e.g. in a Latin-1 config comment, are replaced, never fatal).
/// Throws pio::Error naming the path if it cannot be written.
void save_results(const std::string &path, const nlohmann::json &doc);

} // namespace pio::harness
