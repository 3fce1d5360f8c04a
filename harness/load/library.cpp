// Opening one module object (library.hpp): ELF check, API version and ABI fingerprint, then Boost.DLL.
#include "load/library.hpp"

#include <elf.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>

#include <boost/dll/library_info.hpp>

#include "pio/error.hpp"
#include "pio/io/backend_export.hpp"
#include "pio/version.hpp"

namespace pio::harness {

namespace {

/// What makes path unsafe to map (dlopen of a truncated object dies of SIGBUS): "" if it is a
/// complete 64-bit ELF shared object whose segments and section headers lie inside the file.
std::string elf_problem(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return "cannot be read";
  f.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(f.tellg());
  f.seekg(0);
  Elf64_Ehdr eh{};
  if (!f.read(reinterpret_cast<char *>(&eh), sizeof eh) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return "is not an ELF file";
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_DYN)
    return "is not a 64-bit ELF shared object";
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
      eh.e_phoff + std::uint64_t(eh.e_phnum) * sizeof(Elf64_Phdr) > size)
    return "is truncated (its program headers lie beyond its end)";
  if (eh.e_shoff + std::uint64_t(eh.e_shnum) * eh.e_shentsize > size)
    return "is truncated (its section headers lie beyond its end)";
  f.seekg(static_cast<std::streamoff>(eh.e_phoff));
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!f.read(reinterpret_cast<char *>(&ph), sizeof ph))
      return "cannot be read";
    if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size)
      return "is truncated (a loadable segment lies beyond its end)";
  }
  return {};
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
  differ("size of the backend description", std::to_string(module.backend_info_size),
         std::to_string(harness.backend_info_size));
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
  if (const std::string bad = elf_problem(path); !bad.empty())
    throw Error("module file " + path + " " + bad,
                "rebuild or reinstall it, or remove it from the module path");
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
  const std::string abi =
      abi_mismatch(lib->get<const AbiFingerprint>(PIO_ABI_SYMBOL), harness_abi());
  if (!abi.empty())
    throw Error("module file " + path + " was built with another ABI than this pio-harness: " + abi,
                fix + " with the same compiler and MPI library as pio-harness");
  static const std::vector<ModuleInfo> no_modules;
  static const std::vector<io::BackendInfo> no_backends;
  const bool has_modules = lib->has(PIO_MODULES_SYMBOL);
  const bool has_backends = lib->has(PIO_BACKENDS_SYMBOL);
  if (!has_modules && !has_backends)
    throw Error("module file " + path +
                    " has no " PIO_MODULES_SYMBOL " or " PIO_BACKENDS_SYMBOL " function",
                "export its modules with PIO_EXPORT_MODULES, or its backends with "
                "PIO_EXPORT_BACKENDS (docs/guides/writing-a-backend.md)");
  const std::vector<ModuleInfo> *modules =
      has_modules ? lib->get<const std::vector<ModuleInfo> *()>(PIO_MODULES_SYMBOL)() : nullptr;
  const std::vector<io::BackendInfo> *backends =
      has_backends ? lib->get<const std::vector<io::BackendInfo> *()>(PIO_BACKENDS_SYMBOL)()
                   : nullptr;
  if ((!modules || modules->empty()) && (!backends || backends->empty()))
    throw Error("module file " + path + " provides no modules and no backends",
                "list at least one ModuleInfo in PIO_EXPORT_MODULES (or one BackendInfo in "
                "PIO_EXPORT_BACKENDS)");
  if (backends)
    for (const auto &b : *backends)
      if (!b.create || b.name.empty())
        throw Error("backend file " + path + " lists a backend without a " +
                        (b.name.empty() ? "name" : "create function (" + b.name + ")"),
                    "construct its BackendInfo with a name and pio::io::make_backend<YourBackend>");
  return LoadedLibrary{path, std::move(lib), modules ? modules : &no_modules,
                       backends ? backends : &no_backends};
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
