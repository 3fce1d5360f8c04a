#pragma once
/// Module manifests: a small text file beside each module or backend object, written at build
/// time by pio_add_module / pio_add_backend (pio-manifest), saying which modules or backends the
/// object provides, for which API version and ABI. The harness reads manifests as text to find the
/// object a config needs and opens only that one (docs/guides/writing-a-module.md, "What
/// pio_add_module produces").

#include <string>
#include <utility>
#include <vector>

#include "pio/abi.hpp"

namespace pio::harness {

struct LoadedLibrary;

/// The manifest format this harness reads and writes (the "format" line).
constexpr int kManifestFormat = 1;
/// A manifest's file name is the object's with ".so" replaced by this.
constexpr const char *kManifestSuffix = ".pio-manifest";

/// What a manifest says about its object.
struct Manifest {
  int format = 0;       ///< manifest format version
  std::string object;   ///< the object's file name, in the manifest's directory
  int api_version = 0;  ///< module API version the object was built against
  AbiFingerprint abi{}; ///< the object's ABI fingerprint
  std::string build_id; ///< the object's ELF build id (hex), "none" if it has none
  std::vector<std::pair<std::string, std::string>> modules; ///< name and title of each module
  std::vector<std::string> backends;                        ///< name of each backend
};

/// The manifest path for a module object: "dir/x.so" -> "dir/x.pio-manifest".
std::string manifest_path_for(const std::string &object_path);

/// The manifest of a loaded object (its ELF build id read from object_path).
Manifest manifest_of(const LoadedLibrary &lib);

/// The manifest as text, one "key value" per line.
std::string manifest_text(const Manifest &m);

/// Reads a manifest file as text. Throws pio::Error naming path:line and what is wrong.
Manifest read_manifest(const std::string &path);

/// Loads object_path (load_library) and writes its manifest to out_path, atomically (a
/// temporary beside it, renamed). Throws pio::Error if the object is not a usable module.
void write_manifest(const std::string &object_path, const std::string &out_path);

/// The ELF build id of an object as hex, "none" if it has none or cannot be read.
std::string elf_build_id(const std::string &object_path);

/// True when both manifests describe the same build: same modules, API version, ABI and
/// build id (a build tree's object and its installed copy).
bool same_build(const Manifest &a, const Manifest &b);

} // namespace pio::harness
