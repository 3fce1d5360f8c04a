#include "load/manifest.hpp"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <boost/filesystem.hpp>

#include "load/library.hpp"
#include "pio/error.hpp"

namespace pio::harness {

namespace {

/// A manifest is a few hundred bytes; anything much larger is not one (and an endless file such
/// as /dev/zero must not hang the reader).
constexpr std::uintmax_t kMaxManifestBytes = 1 << 20;

std::string fixed(const char *s, std::size_t n) { return std::string(s, strnlen(s, n)); }

template <std::size_t N> void set_fixed(char (&dst)[N], const std::string &v) {
  std::memset(dst, 0, N);
  std::memcpy(dst, v.data(), std::min(v.size(), N - 1));
}

const std::string kRebuild =
    "rebuild the module (cmake --build; pio_add_module writes the manifest), "
    "or remove the manifest";
} // namespace

std::string manifest_path_for(const std::string &object_path) {
  const std::string so = ".so";
  std::string base = object_path;
  if (base.size() >= so.size() && base.compare(base.size() - so.size(), so.size(), so) == 0)
    base.resize(base.size() - so.size());
  return base + kManifestSuffix;
}

std::string elf_build_id(const std::string &object_path) {
  std::ifstream f(object_path, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!f.read(reinterpret_cast<char *>(&eh), sizeof eh) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr))
    return "none";
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    f.seekg(static_cast<std::streamoff>(eh.e_phoff + std::uint64_t(i) * sizeof ph));
    if (!f.read(reinterpret_cast<char *>(&ph), sizeof ph))
      return "none";
    if (ph.p_type != PT_NOTE || ph.p_filesz > (1u << 20))
      continue;
    std::string notes(ph.p_filesz, '\0');
    f.seekg(static_cast<std::streamoff>(ph.p_offset));
    if (!f.read(notes.data(), static_cast<std::streamsize>(notes.size())))
      return "none";
    auto align4 = [](std::uint64_t n) { return (n + 3) & ~std::uint64_t(3); };
    for (std::uint64_t at = 0; at + sizeof(Elf64_Nhdr) <= notes.size();) {
      Elf64_Nhdr nh{};
      std::memcpy(&nh, notes.data() + at, sizeof nh);
      const std::uint64_t name_at = at + sizeof nh;
      const std::uint64_t desc_at = name_at + align4(nh.n_namesz);
      if (desc_at + nh.n_descsz > notes.size())
        break;
      if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
          std::memcmp(notes.data() + name_at, "GNU", 4) == 0) {
        std::string hex;
        char byte[3];
        for (std::uint64_t k = 0; k < nh.n_descsz; ++k) {
          std::snprintf(byte, sizeof byte, "%02x", static_cast<unsigned char>(notes[desc_at + k]));
          hex += byte;
        }
        return hex.empty() ? "none" : hex;
      }
      at = desc_at + align4(nh.n_descsz);
    }
  }
  return "none";
}

Manifest manifest_of(const LoadedLibrary &lib) {
  Manifest m;
  m.format = kManifestFormat;
  m.object = boost::filesystem::path(lib.path).filename().string();
  m.api_version = lib.lib->get<const int>(PIO_API_VERSION_SYMBOL);
  m.abi = lib.lib->get<const AbiFingerprint>(PIO_ABI_SYMBOL);
  m.build_id = elf_build_id(lib.path);
  for (const auto &info : *lib.modules)
    m.modules.emplace_back(info.name, info.title);
  for (const auto &info : *lib.backends)
    m.backends.push_back(info.name);
  return m;
}

std::string manifest_text(const Manifest &m) {
  std::ostringstream out;
  out << "# pio-bench module manifest: written by pio_add_module (pio-manifest), read as text by "
         "pio-harness\n"
      << "format " << m.format << "\n"
      << "object " << m.object << "\n"
      << "api_version " << m.api_version << "\n"
      << "build_id " << m.build_id << "\n"
      << "abi.compiler " << fixed(m.abi.compiler, sizeof m.abi.compiler) << "\n"
      << "abi.mpi " << fixed(m.abi.mpi, sizeof m.abi.mpi) << "\n"
      << "abi.mpi_version " << fixed(m.abi.mpi_version, sizeof m.abi.mpi_version) << "\n"
      << "abi.mpi_handle_size " << m.abi.mpi_handle_size << "\n"
      << "abi.module_info_size " << m.abi.module_info_size << "\n"
      << "abi.test_spec_size " << m.abi.test_spec_size << "\n"
      << "abi.context_size " << m.abi.context_size << "\n"
      << "abi.results_size " << m.abi.results_size << "\n"
      << "abi.backend_info_size " << m.abi.backend_info_size << "\n";
  for (const auto &[name, title] : m.modules)
    out << "module " << name << (title.empty() ? "" : "\t" + title) << "\n";
  for (const auto &name : m.backends)
    out << "backend " << name << "\n";
  return out.str();
}

Manifest read_manifest(const std::string &path) {
  namespace fs = boost::filesystem;
  boost::system::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw Error("module manifest " + path + " is not a regular file", kRebuild);
  if (fs::file_size(path, ec) > kMaxManifestBytes)
    throw Error("module manifest " + path + " is larger than a manifest can be", kRebuild);
  std::ifstream f(path);
  if (!f)
    throw Error("module manifest " + path + " cannot be read", "check its permissions");
  Manifest m;
  bool has_object = false, has_api = false;
  std::string line;
  int number = 0;
  while (std::getline(f, line)) {
    ++number;
    const std::string where = "module manifest " + path + ":" + std::to_string(number);
    if (line.empty() || line[0] == '#')
      continue;
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    auto number_of = [&]() {
      try {
        std::size_t used = 0;
        const int v = std::stoi(value, &used);
        if (used == value.size())
          return v;
      } catch (const std::exception &) {
      }
      throw Error(where + ": " + key + " \"" + value + "\" is not a number", kRebuild);
    };
    if (key == "format") {
      m.format = number_of();
      if (m.format != kManifestFormat)
        throw Error(where + ": manifest format " + value + ", but this pio-harness reads format " +
                        std::to_string(kManifestFormat),
                    kRebuild);
    } else if (key == "object") {
      m.object = value;
      has_object = !value.empty() && value.find('/') == std::string::npos;
    } else if (key == "api_version") {
      m.api_version = number_of();
      has_api = true;
    } else if (key == "build_id") {
      m.build_id = value;
    } else if (key == "abi.compiler") {
      set_fixed(m.abi.compiler, value);
    } else if (key == "abi.mpi") {
      set_fixed(m.abi.mpi, value);
    } else if (key == "abi.mpi_version") {
      set_fixed(m.abi.mpi_version, value);
    } else if (key == "abi.mpi_handle_size") {
      m.abi.mpi_handle_size = number_of();
    } else if (key == "abi.module_info_size") {
      m.abi.module_info_size = number_of();
    } else if (key == "abi.test_spec_size") {
      m.abi.test_spec_size = number_of();
    } else if (key == "abi.context_size") {
      m.abi.context_size = number_of();
    } else if (key == "abi.results_size") {
      m.abi.results_size = number_of();
    } else if (key == "abi.backend_info_size") {
      m.abi.backend_info_size = number_of();
    } else if (key == "module") {
      const auto tab = value.find('\t');
      const std::string name = value.substr(0, tab);
      if (name.empty())
        throw Error(where + ": a module line without a name", kRebuild);
      m.modules.emplace_back(name, tab == std::string::npos ? "" : value.substr(tab + 1));
    } else if (key == "backend") {
      if (value.empty())
        throw Error(where + ": a backend line without a name", kRebuild);
      m.backends.push_back(value);
    } // other keys: added by a later manifest of the same format; ignored
  }
  if (m.format == 0)
    throw Error("module manifest " + path + " has no format line (it is not a pio-bench manifest)",
                kRebuild);
  if (!has_object || !has_api || (m.modules.empty() && m.backends.empty()))
    throw Error("module manifest " + path + " lacks " +
                    (!has_object ? "an object line (a file name)"
                     : !has_api  ? "an api_version line"
                                 : "module or backend lines"),
                kRebuild);
  return m;
}

void write_manifest(const std::string &object_path, const std::string &out_path) {
  const std::string text = manifest_text(manifest_of(load_library(object_path)));
  const std::string tmp = out_path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw Error("cannot write module manifest " + tmp + ": " + std::strerror(errno),
                  "check that the build directory is writable and not full");
    }
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw Error("cannot write module manifest " + out_path + ": " + why,
                "check that the build directory is writable");
  }
}

bool same_build(const Manifest &a, const Manifest &b) {
  return manifest_text(a) == manifest_text(b);
}

} // namespace pio::harness
