#pragma once
/// The broadcast start-up (docs/measurements/performance.md, "Start-up"): only rank 0 reads the
/// config files and the module manifests; what it read reaches the other ranks in one MPI_Bcast,
/// serialized here and nowhere else, so the file system sees one reader, not one per rank.

#include <mpi.h>

#include <string>
#include <vector>

#include "config/config_source.hpp"
#include "load/catalog.hpp"

namespace pio::harness {

/// What rank 0 read at start-up that the other ranks plan from: the config files as it read
/// them (Includes resolved, ${VAR}s expanded) and the catalog's listing (module names -> object
/// paths, API version, ABI fingerprints, build ids; the problems it found), never an open object.
struct StartupInputs {
  bool ok = false;                   ///< rank 0 read and scanned without an error
  std::vector<ConfigSource> sources; ///< Config::sources of rank 0's parse_config
  Catalog catalog;                   ///< the listing only (Catalog::libraries stays empty)
};

/// Collective over comm: rank 0 passes what it read (ok false: it failed; only that is sent),
/// every other rank gets a copy. Two MPI_Bcast calls (the size, then the bytes).
void broadcast_startup(MPI_Comm comm, StartupInputs &inputs);

/// The bytes broadcast_startup sends for inputs (and reads back with startup_from_bytes).
std::string startup_to_bytes(const StartupInputs &inputs);

/// The inputs from startup_to_bytes's bytes. Throws pio::Error if they are not such bytes.
StartupInputs startup_from_bytes(const std::string &bytes);

} // namespace pio::harness
