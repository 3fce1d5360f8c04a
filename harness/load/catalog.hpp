#pragma once
/// The catalog of module and backend objects on the search path: found from their manifests
/// (manifest.hpp), each opened (library.hpp) only when a module or backend it provides is asked
/// for.

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>


#include "load/library.hpp"
#include "load/manifest.hpp"
#include "pio/module.hpp"

namespace pio::harness {

/// One module or backend object (.so) on the search path that has a manifest.
struct ModuleObject {
  std::string path;          ///< the .so file
  std::string manifest_path; ///< its manifest file
  Manifest manifest;         ///< what the manifest says
  std::string problem;       ///< why it cannot be used (stale manifest, API mismatch...); "" if ok
  std::string hint;          ///< how to fix problem
};

/// The module objects on the search path, found from their manifests (read as text); an object
/// is opened only when a module it provides is asked for (find). Objects without a manifest are
/// opened only when no manifest provides the name asked for.
struct Catalog {
  std::vector<ModuleObject> listed;    ///< objects with a manifest, in search order
  std::vector<std::string> unlisted;   ///< .so files without a manifest, in search order
  std::deque<LoadedLibrary> libraries; ///< the objects opened so far (references stay valid)
  std::vector<std::string> problems;   ///< "path: what is wrong" per unusable manifest or object
  /// Module names provided by more than one object (different builds): the files, the one used
  /// first.
  std::map<std::string, std::vector<std::string>> duplicates;
  /// Backend names (Interface words) provided by more than one object: the files, the one used
  /// first.
  std::map<std::string, std::vector<std::string>> backend_duplicates;
  /// "N module object(s) in B are the same builds as in A, which are used (...)": a build tree
  /// and its install hold the same objects, which is not a conflict.
  std::vector<std::string> notes;
  /// "FILE has no manifest ..." for each object opened without one, "not loaded: ..." for each
  /// one that could not be opened.
  std::vector<std::string> unlisted_warnings;
  bool unlisted_opened = false; ///< the objects without a manifest have been opened

  /// "module NAME is provided by A and B; A is used" for each duplicate, then "backend NAME ...".
  std::vector<std::string> duplicate_warnings() const;
  /// Finds a module by name or title (case-insensitive) in the manifests and opens the object
  /// that provides it; if no manifest provides it and open_unlisted, opens the objects without a
  /// manifest. nullptr if none provides it. Throws pio::Error if the object the manifest names
  /// cannot be used (stale manifest, missing or broken object, API or ABI mismatch).
  const ModuleInfo *find(const std::string &name, const LoadedLibrary **from = nullptr,
                         bool open_unlisted = true);
  /// True when a manifest provides name (by name or title), without opening anything.
  bool listed_provides(const std::string &name) const;
  /// Every module name known (manifests, and objects without one that were opened).
  std::vector<std::string> names() const;
  /// The usable objects with a manifest, each build once (a build tree's before its install's
  /// copy), then those without one: what a listing opens (--list-modules, --list-interfaces).
  std::vector<std::string> distinct_objects() const;
  /// Opens every usable object (for tests and tools; the run opens only what it needs).
  void open_all();
  /// Finds a backend by its Interface word (case-insensitive) in the manifests and opens the
  /// object that provides it (then, when no manifest does, the objects without one). nullptr if
  /// none provides it. Throws pio::Error as find does.
  const io::BackendInfo *find_backend(const std::string &name,
                                      const LoadedLibrary **from = nullptr);
  /// Every backend name the manifests list (and the opened objects without one provide), in
  /// search order, each once.
  std::vector<std::string> backend_names() const;
  /// Opens every usable object that lists a backend and returns each backend, first provider of
  /// a name only, in search order (the backends' option tables: a block's line naming another
  /// backend's option, --list-interfaces).
  std::vector<const io::BackendInfo *> all_backends();

private:
  const LoadedLibrary &open(const std::string &path);
  void open_unlisted(const std::string &wanted);
};

/// Scans dirs in order (a directory reached twice is read once), reading each directory's
/// manifests as text; never opens an object. Checks each manifest against its object (present,
/// not newer than the manifest) and this harness (API version, ABI). A module name in two
/// objects that are not the same build is listed in Catalog::duplicates.
Catalog scan_modules(const std::vector<std::string> &dirs);

} // namespace pio::harness
