#pragma once
/// Finds and loads module shared objects with Boost.DLL, checking the API version and ABI
/// fingerprint first (docs/writing-a-module.md).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "pio/module.hpp"

namespace pio::harness {

/// A loaded shared object and the modules it provides. Keeps the library loaded while any
/// Instance made from it lives.
struct LoadedLibrary {
  std::string path;                                 ///< the .so file
  std::shared_ptr<boost::dll::shared_library> lib;  ///< keeps the code mapped
  const std::vector<ModuleInfo> *modules = nullptr; ///< owned by the library
};

/// A module object together with the library its code lives in; the object is destroyed
/// first (members are destroyed in reverse order), so it never outlives its library.
struct Instance {
  std::shared_ptr<boost::dll::shared_library> lib; ///< declared first: destroyed last
  std::unique_ptr<Module> module;                  ///< the object
  const ModuleInfo *info = nullptr;                ///< its description (lives in lib)
};

/// Loads one module shared object: checks pio_api_version and the ABI fingerprint before calling
/// anything, then calls pio_modules. Throws pio::Error naming the file and what is wrong
/// (missing file, not a shared object, missing symbol, API version or ABI mismatch naming both).
LoadedLibrary load_library(const std::string &path);

/// What differs between a module's ABI fingerprint and the harness's ("" if they match).
std::string abi_mismatch(const AbiFingerprint &module, const AbiFingerprint &harness);

/// The harness's own fingerprint.
const AbiFingerprint &harness_abi();
/// Every module library in the search directories (files ending in .so), with the load error
/// of each file that is not a usable module.
struct Catalog {
  std::vector<LoadedLibrary> libraries; ///< usable libraries, in search order
  std::vector<std::string> problems;    ///< "path: what is wrong" per unusable file
  /// Module names provided by more than one file: the files, the one used first.
  std::map<std::string, std::vector<std::string>> duplicates;
  /// "module NAME is in both A and B; A is used" for each duplicate.
  std::vector<std::string> duplicate_warnings() const;
  /// Finds a module by name or title (case-insensitive); nullptr if none.
  const ModuleInfo *find(const std::string &name, const LoadedLibrary **from = nullptr) const;
  /// Every module name, for error messages.
  std::vector<std::string> names() const;
};

/// Scans dirs in order (a file reached twice is read once); a module name found in two files
/// keeps the first and is listed in Catalog::duplicates. Each file is checked to be a complete
/// ELF shared object before it is loaded.
Catalog scan_modules(const std::vector<std::string> &dirs);

/// Makes a fresh instance of a module from a library.
Instance instantiate(const LoadedLibrary &lib, const ModuleInfo &info);

} // namespace pio::harness
