#pragma once
/// Opening one module or backend object with Boost.DLL: the ELF header checked first (a truncated
/// file would SIGBUS), then the API version and ABI fingerprint, before any of its code is called
/// (docs/guides/writing-a-module.md); and making module instances that never outlive their library.

#include <memory>
#include <string>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "pio/abi.hpp"
#include "pio/io/backend.hpp"
#include "pio/module.hpp"

namespace pio::harness {

/// A loaded shared object and the modules or backends it provides. Keeps the library loaded
/// while any Instance or backend made from it lives.
struct LoadedLibrary {
  std::string path;                                ///< the .so file
  std::shared_ptr<boost::dll::shared_library> lib; ///< keeps the code mapped
  const std::vector<ModuleInfo> *modules;          ///< owned by the library (empty: none)
  const std::vector<io::BackendInfo> *backends;    ///< owned by the library (empty: none)
};

/// A module object together with the library its code lives in; the object is destroyed
/// first (members are destroyed in reverse order), so it never outlives its library.
struct Instance {
  std::shared_ptr<boost::dll::shared_library> lib; ///< declared first: destroyed last
  std::unique_ptr<Module> module;                  ///< the object
  const ModuleInfo *info = nullptr;                ///< its description (lives in lib)
};

/// Loads one module or backend shared object: checks pio_api_version and the ABI fingerprint
/// before calling anything, then calls pio_modules and pio_backends (one of them at least).
/// Throws pio::Error naming the file and what is wrong (missing file, not a shared object,
/// missing symbol, API version or ABI mismatch naming both, nothing provided).
LoadedLibrary load_library(const std::string &path);

/// What differs between a module's ABI fingerprint and the harness's ("" if they match).
std::string abi_mismatch(const AbiFingerprint &module, const AbiFingerprint &harness);

/// The harness's own fingerprint.
const AbiFingerprint &harness_abi();

/// Makes a fresh instance of a module from a library.
Instance instantiate(const LoadedLibrary &lib, const ModuleInfo &info);

} // namespace pio::harness
