// The catalog of module objects (catalog.hpp): manifests read as text, objects opened on demand.
#include "load/catalog.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>

#include <boost/filesystem.hpp>

#include "config/text.hpp"
#include "load/probe.hpp"
#include "pio/error.hpp"
#include "pio/version.hpp"

namespace pio::harness {

namespace {
/// The module of lib called name (by name or title); nullptr if none.
const ModuleInfo *module_in(const LoadedLibrary &lib, const std::string &name) {
  for (const auto &m : *lib.modules)
    if (lower(m.name) == lower(name) || (!m.title.empty() && lower(m.title) == lower(name)))
      return &m;
  return nullptr;
}

bool manifest_provides(const Manifest &m, const std::string &name) {
  for (const auto &[n, title] : m.modules)
    if (lower(n) == lower(name) || (!title.empty() && lower(title) == lower(name)))
      return true;
  return false;
}

/// The backend of lib called name (case-insensitive); nullptr if none.
const io::BackendInfo *backend_in(const LoadedLibrary &lib, const std::string &name) {
  for (const auto &b : *lib.backends)
    if (lower(b.name) == lower(name))
      return &b;
  return nullptr;
}

bool manifest_provides_backend(const Manifest &m, const std::string &name) {
  for (const auto &n : m.backends)
    if (lower(n) == lower(name))
      return true;
  return false;
}

/// Each name once, in search order: those `of_manifest` gives of the usable manifests, then those
/// `of_library` gives of the objects opened (without a manifest too).
template <class OfManifest, class OfLibrary>
std::vector<std::string> unique_names(const std::vector<ModuleObject> &listed,
                                      const std::deque<LoadedLibrary> &libraries,
                                      OfManifest of_manifest, OfLibrary of_library) {
  std::vector<std::string> out;
  auto add = [&](const std::string &n) {
    if (std::find(out.begin(), out.end(), n) == out.end())
      out.push_back(n);
  };
  for (const auto &o : listed)
    if (o.problem.empty())
      of_manifest(o.manifest, add);
  for (const auto &l : libraries)
    of_library(l, add);
  return out;
}

/// Records in `into` that `name` is provided by `first` and by `again` (another build).
void add_duplicate(std::map<std::string, std::vector<std::string>> &into, const std::string &name,
                   const std::string &first, const std::string &again) {
  auto &files = into[name];
  if (files.empty())
    files.push_back(first);
  files.push_back(again);
}

/// Modification time in nanoseconds; -1 if it cannot be read.
long long mtime_ns(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return -1;
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

/// Checks a listed object against its manifest and this harness; sets o.problem and o.hint.
void check_listed(ModuleObject &o) {
  namespace fs = boost::filesystem;
  const std::string rebuild = "rebuild the module (cmake --build; pio_add_module rewrites the "
                              "manifest) and reinstall it if it is installed";
  boost::system::error_code ec;
  if (!fs::exists(o.path, ec)) {
    o.problem =
        "module manifest " + o.manifest_path + " names " + o.path + ", which does not exist";
    o.hint = rebuild + ", or remove the manifest";
  } else if (mtime_ns(o.path) > mtime_ns(o.manifest_path)) {
    o.problem = "module manifest " + o.manifest_path + " is stale: " + o.path +
                " was modified after the manifest was written";
    o.hint =
        rebuild + ", or write the manifest with pio-manifest " + o.path + " " + o.manifest_path;
  } else if (o.manifest.api_version != kApiVersion) {
    o.problem = "module file " + o.path + " was built for module API version " +
                std::to_string(o.manifest.api_version) +
                ", but this pio-harness has module API version " + std::to_string(kApiVersion) +
                " (says its manifest " + o.manifest_path + ")";
    o.hint = "rebuild the module against this pio-harness's headers (find_package(pio-bench) and "
             "pio_add_module)";
  } else if (const std::string abi = abi_mismatch(o.manifest.abi, harness_abi()); !abi.empty()) {
    o.problem = "module file " + o.path +
                " was built with another ABI than this pio-harness: " + abi +
                " (says its manifest " + o.manifest_path + ")";
    o.hint = "rebuild the module against this pio-bench's headers with the same compiler and MPI "
             "library as pio-harness";
  }
}
} // namespace

const LoadedLibrary &Catalog::open(const std::string &path) {
  for (const auto &l : libraries)
    if (l.path == path)
      return l;
  libraries.push_back(load_library(path));
  return libraries.back();
}

void Catalog::open_unlisted(const std::string &wanted) {
  if (unlisted_opened)
    return;
  unlisted_opened = true;
  for (const auto &path : unlisted) {
    // Opened in a child first: an object without a manifest may be anything.
    if (const ProbeResult probe = open_in_child(path, [](const LoadedLibrary &) { return ""; });
        !probe.problem.empty()) {
      problems.push_back(probe.problem);
      unlisted_warnings.push_back("not loaded: " + probe.problem);
      continue;
    }
    try {
      const LoadedLibrary &lib = open(path);
      unlisted_warnings.push_back(
          path + " has no module manifest (" + manifest_path_for(path) +
          "), so it was opened to look for module " + wanted +
          " (build it with pio_add_module, or write one with pio-manifest " + path + " " +
          manifest_path_for(path) + ")");
      for (const auto &m : *lib.modules)
        for (const auto &other : libraries)
          if (&other != &lib && module_in(other, m.name) &&
              std::find(unlisted.begin(), unlisted.end(), other.path) != unlisted.end()) {
            add_duplicate(duplicates, m.name, other.path, path);
            break;
          }
      for (const auto &b : *lib.backends)
        for (const auto &other : libraries)
          if (&other != &lib && backend_in(other, b.name) &&
              std::find(unlisted.begin(), unlisted.end(), other.path) != unlisted.end()) {
            add_duplicate(backend_duplicates, b.name, other.path, path);
            break;
          }
    } catch (const Error &e) {
      problems.push_back(std::string(e.what()) + (e.hint().empty() ? "" : " (" + e.hint() + ")"));
      unlisted_warnings.push_back("not loaded: " + problems.back());
    }
  }
}

bool Catalog::listed_provides(const std::string &name) const {
  return std::any_of(listed.begin(), listed.end(),
                     [&](const ModuleObject &o) { return manifest_provides(o.manifest, name); });
}

const ModuleInfo *Catalog::find(const std::string &name, const LoadedLibrary **from,
                                bool open_unlisted_objects) {
  for (const auto &o : listed) {
    if (!manifest_provides(o.manifest, name))
      continue;
    if (!o.problem.empty())
      throw Error(o.problem, o.hint);
    const LoadedLibrary &lib = open(o.path);
    const ModuleInfo *info = module_in(lib, name);
    if (!info)
      throw Error("module manifest " + o.manifest_path + " lists module " + name + ", but " +
                      o.path + " does not provide it (the manifest is out of date)",
                  "rebuild the module (cmake --build; pio_add_module rewrites the manifest)");
    if (from)
      *from = &lib;
    return info;
  }
  if (!open_unlisted_objects)
    return nullptr;
  open_unlisted(name);
  for (const auto &path : unlisted)
    for (const auto &lib : libraries)
      if (lib.path == path)
        if (const ModuleInfo *info = module_in(lib, name)) {
          if (from)
            *from = &lib;
          return info;
        }
  return nullptr;
}

std::vector<std::string> Catalog::duplicate_warnings() const {
  std::vector<std::string> out;
  for (const auto *map : {&duplicates, &backend_duplicates})
    for (const auto &[name, paths] : *map) {
      std::vector<std::string> unique; // in search order, each once
      for (const auto &p : paths)
        if (std::find(unique.begin(), unique.end(), p) == unique.end())
          unique.push_back(p);
      std::string list;
      for (const auto &p : unique)
        list += (list.empty() ? "" : " and ") + p;
      out.push_back(std::string(map == &duplicates ? "module " : "backend ") + name +
                    " is provided by " + list + "; " + paths.front() +
                    " is used (remove the other, or order the module path)");
    }
  return out;
}

const io::BackendInfo *Catalog::find_backend(const std::string &name, const LoadedLibrary **from) {
  for (const auto &o : listed) {
    if (!manifest_provides_backend(o.manifest, name))
      continue;
    if (!o.problem.empty())
      throw Error(o.problem, o.hint);
    const LoadedLibrary &lib = open(o.path);
    const io::BackendInfo *info = backend_in(lib, name);
    if (!info)
      throw Error("module manifest " + o.manifest_path + " lists backend " + name + ", but " +
                      o.path + " does not provide it (the manifest is out of date)",
                  "rebuild the backend (cmake --build; pio_add_backend rewrites the manifest)");
    if (from)
      *from = &lib;
    return info;
  }
  open_unlisted(name);
  for (const auto &path : unlisted)
    for (const auto &lib : libraries)
      if (lib.path == path)
        if (const io::BackendInfo *info = backend_in(lib, name)) {
          if (from)
            *from = &lib;
          return info;
        }
  return nullptr;
}

std::vector<std::string> Catalog::backend_names() const {
  return unique_names(
      listed, libraries,
      [](const Manifest &m, auto add) {
        for (const auto &b : m.backends)
          add(b);
      },
      [](const LoadedLibrary &l, auto add) {
        for (const auto &b : *l.backends)
          add(b.name);
      });
}

std::vector<const io::BackendInfo *> Catalog::all_backends() {
  std::vector<const io::BackendInfo *> out;
  for (const auto &name : backend_names())
    try {
      if (const io::BackendInfo *b = find_backend(name))
        out.push_back(b);
    } catch (const Error &e) {
      const std::string problem = std::string(e.what()) + " (" + e.hint() + ")";
      if (std::find(problems.begin(), problems.end(), problem) == problems.end())
        problems.push_back(problem);
    }
  return out;
}

std::vector<std::string> Catalog::names() const {
  return unique_names(
      listed, libraries,
      [](const Manifest &m, auto add) {
        for (const auto &n : m.modules)
          add(n.first);
      },
      [](const LoadedLibrary &l, auto add) {
        for (const auto &n : *l.modules)
          add(n.name);
      });
}

std::vector<std::string> Catalog::distinct_objects() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    bool same_as_earlier = false;
    for (std::size_t j = 0; j < i; ++j)
      same_as_earlier = same_as_earlier || (listed[j].problem.empty() &&
                                            same_build(listed[j].manifest, listed[i].manifest));
    if (listed[i].problem.empty() && !same_as_earlier)
      out.push_back(listed[i].path);
  }
  out.insert(out.end(), unlisted.begin(), unlisted.end());
  return out;
}

void Catalog::open_all() {
  for (const auto &o : listed)
    if (o.problem.empty())
      try {
        open(o.path);
      } catch (const Error &e) {
        problems.push_back(std::string(e.what()) + " (" + e.hint() + ")");
      }
  open_unlisted("(all)");
}

Catalog scan_modules(const std::vector<std::string> &dirs) {
  namespace fs = boost::filesystem;
  Catalog cat;
  // (directory used, later directory) -> objects in the later one that are the same builds
  std::map<std::pair<std::string, std::string>, std::set<std::string>> same;
  std::set<std::string> seen_dirs; // canonical: a directory listed twice is read once
  for (const auto &dir : dirs) {
    boost::system::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec))
      continue;
    const std::string canonical_dir = fs::canonical(dir, ec).string();
    if (!seen_dirs.insert(ec ? dir : canonical_dir).second)
      continue;
    std::vector<std::string> objects, manifests;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext == ".so")
        objects.push_back(it->path().string());
      else if (ext == kManifestSuffix)
        manifests.push_back(it->path().string());
    }
    std::sort(objects.begin(), objects.end());
    std::sort(manifests.begin(), manifests.end());
    std::set<std::string> claimed; // objects named by a manifest of this directory
    for (const auto &mpath : manifests) {
      ModuleObject o;
      o.manifest_path = mpath;
      try {
        o.manifest = read_manifest(mpath);
      } catch (const Error &e) {
        cat.problems.push_back(std::string(e.what()) + " (" + e.hint() + ")");
        continue;
      }
      o.path = (fs::path(dir) / o.manifest.object).string();
      claimed.insert(o.path);
      check_listed(o);
      if (!o.problem.empty()) {
        cat.problems.push_back(o.problem + " (" + o.hint + ")");
      } else {
        // A name in an earlier object: the same build (a build tree and its install) is a note;
        // another build is a duplicate, warned about with both paths.
        for (const auto &[name, title] : o.manifest.modules)
          for (const auto &first : cat.listed)
            if (first.problem.empty() && manifest_provides(first.manifest, name)) {
              if (same_build(first.manifest, o.manifest))
                same[{fs::path(first.path).parent_path().string(), dir}].insert(o.manifest.object);
              else
                add_duplicate(cat.duplicates, name, first.path, o.path);
              break;
            }
        for (const auto &name : o.manifest.backends)
          for (const auto &first : cat.listed)
            if (first.problem.empty() && manifest_provides_backend(first.manifest, name)) {
              if (same_build(first.manifest, o.manifest))
                same[{fs::path(first.path).parent_path().string(), dir}].insert(o.manifest.object);
              else
                add_duplicate(cat.backend_duplicates, name, first.path, o.path);
              break;
            }
      }
      cat.listed.push_back(std::move(o));
    }
    for (const auto &f : objects)
      if (!claimed.count(f))
        cat.unlisted.push_back(f);
  }
  for (const auto &[dirs_pair, files] : same) {
    std::string list;
    for (const auto &f : files)
      list += (list.empty() ? "" : ", ") + f;
    cat.notes.push_back(std::to_string(files.size()) + " module object(s) in " + dirs_pair.second +
                        " are the same builds as in " + dirs_pair.first + ", which are used (" +
                        list + ")");
  }
  return cat;
}

} // namespace pio::harness
