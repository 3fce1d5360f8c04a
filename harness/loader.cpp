#include "loader.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <boost/dll/library_info.hpp>
#include <boost/filesystem.hpp>

#include "pio/error.hpp"
#include "pio/version.hpp"

namespace pio::harness {

namespace {
bool iequals(const std::string &a, const std::string &b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}
} // namespace

const AbiFingerprint &harness_abi() {
  static const AbiFingerprint mine = PIO_ABI_FINGERPRINT_INIT;
  return mine;
}

std::string abi_mismatch(const AbiFingerprint &module, const AbiFingerprint &harness) {
  auto text = [](const char *s, size_t n) { return std::string(s, strnlen(s, n)); };
  std::string out;
  auto differ = [&](const std::string &what, const std::string &m, const std::string &h) {
    if (m != h)
      out += (out.empty() ? "" : "; ") + what + ": module " + m + ", harness " + h;
  };
  differ("C++ library", text(module.compiler, sizeof module.compiler),
         text(harness.compiler, sizeof harness.compiler));
  differ("MPI library", text(module.mpi, sizeof module.mpi), text(harness.mpi, sizeof harness.mpi));
  differ("MPI handle size", std::to_string(module.mpi_handle_size),
         std::to_string(harness.mpi_handle_size));
  differ("sizeof(ModuleInfo)", std::to_string(module.module_info_size),
         std::to_string(harness.module_info_size));
  differ("sizeof(TestSpec)", std::to_string(module.test_spec_size),
         std::to_string(harness.test_spec_size));
  differ("size of the contexts", std::to_string(module.context_size),
         std::to_string(harness.context_size));
  differ("size of the results", std::to_string(module.results_size),
         std::to_string(harness.results_size));
  if (!out.empty() && text(module.mpi, sizeof module.mpi) != text(harness.mpi, sizeof harness.mpi))
    out += " (module built against " + text(module.mpi, sizeof module.mpi) + " " +
           text(module.mpi_version, sizeof module.mpi_version) + ", harness against " +
           text(harness.mpi, sizeof harness.mpi) + " " +
           text(harness.mpi_version, sizeof harness.mpi_version) + ")";
  return out;
}

LoadedLibrary load_library(const std::string &path) {
  namespace fs = boost::filesystem;
  const std::string fix = "rebuild the module against this pio-bench's headers "
                          "(find_package(pio-bench) and pio_add_module)";
  if (!fs::exists(path))
    throw Error("module file " + path + " does not exist",
                "check ModulePath / --module-path; pio-harness --list-modules shows what is found");
  auto lib = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  lib->load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec)
    throw Error("cannot load module file " + path + ": " + ec.message(),
                "it must be a shared object built for this machine; " + fix);
  if (!lib->has(PIO_API_VERSION_SYMBOL))
    throw Error("module file " + path + " has no " PIO_API_VERSION_SYMBOL " symbol",
                "it is not a pio-bench module; export one with PIO_EXPORT_MODULES");
  const int version = lib->get<const int>(PIO_API_VERSION_SYMBOL);
  if (version != kApiVersion)
    throw Error("module file " + path + " was built for module API version " +
                    std::to_string(version) + ", but this pio-harness has module API version " +
                    std::to_string(kApiVersion),
                fix);
  if (!lib->has(PIO_ABI_SYMBOL))
    throw Error("module file " + path + " has no " PIO_ABI_SYMBOL " symbol",
                "export it with PIO_EXPORT_MODULES; " + fix);
  const std::string abi = abi_mismatch(lib->get<const AbiFingerprint>(PIO_ABI_SYMBOL), harness_abi());
  if (!abi.empty())
    throw Error("module file " + path + " was built with another ABI than this pio-harness: " + abi,
                fix + " with the same compiler and MPI library as pio-harness");
  if (!lib->has(PIO_MODULES_SYMBOL))
    throw Error("module file " + path + " has no " PIO_MODULES_SYMBOL " function",
                "export it with PIO_EXPORT_MODULES");
  const auto *modules = lib->get<const std::vector<ModuleInfo> *()>(PIO_MODULES_SYMBOL)();
  if (!modules || modules->empty())
    throw Error("module file " + path + " provides no modules",
                "list at least one ModuleInfo in PIO_EXPORT_MODULES");
  return LoadedLibrary{path, std::move(lib), modules};
}

const ModuleInfo *Catalog::find(const std::string &name, const LoadedLibrary **from) const {
  for (const auto &l : libraries)
    for (const auto &m : *l.modules)
      if (iequals(m.name, name) || (!m.title.empty() && iequals(m.title, name))) {
        if (from)
          *from = &l;
        return &m;
      }
  return nullptr;
}

std::vector<std::string> Catalog::names() const {
  std::vector<std::string> out;
  for (const auto &l : libraries)
    for (const auto &m : *l.modules)
      out.push_back(m.name);
  return out;
}

Catalog scan_modules(const std::vector<std::string> &dirs) {
  namespace fs = boost::filesystem;
  Catalog cat;
  for (const auto &dir : dirs) {
    boost::system::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec))
      continue;
    std::vector<std::string> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".so")
        files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    for (const auto &f : files) {
      try {
        LoadedLibrary lib = load_library(f);
        // A module name already provided by an earlier directory keeps the first.
        bool dup = true;
        for (const auto &m : *lib.modules)
          dup = dup && cat.find(m.name) != nullptr;
        if (!dup)
          cat.libraries.push_back(std::move(lib));
      } catch (const Error &e) {
        cat.problems.push_back(std::string(e.what()) +
                               (e.hint().empty() ? "" : " (" + e.hint() + ")"));
      }
    }
  }
  return cat;
}

Instance instantiate(const LoadedLibrary &lib, const ModuleInfo &info) {
  Instance inst;
  inst.lib = lib.lib;
  inst.info = &info;
  if (!info.create)
    throw Error("module " + info.name + " in " + lib.path + " has no create function",
                "construct its ModuleInfo with pio::make_module<YourModule>");
  inst.module = info.create();
  if (!inst.module)
    throw Error("module " + info.name + " in " + lib.path + " returned no object",
                "its ModuleInfo::create must return a new instance");
  return inst;
}

} // namespace pio::harness
