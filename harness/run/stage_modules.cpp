// Node-local copies of the module objects (stage_modules.hpp).
#include "run/stage_modules.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "config/config_error.hpp"
#include "config/text.hpp"
#include "guard/created_paths.hpp"
#include "load/manifest.hpp"
#include "pio/mpi_handles.hpp"
#include "run/consensus.hpp"

namespace pio::harness {

namespace {
using nlohmann::json;

/// The listed objects (index into catalog.listed) that provide the config's blocks' modules, and
/// every backend object (a block's backend may be its module's default), each once, in catalog
/// order; an unusable one is left out (the plan reports its problem).
std::vector<size_t> needed_objects(const Config &config, const Catalog &catalog) {
  std::set<size_t> out;
  std::set<std::string> backends; // each backend's first provider only (Catalog::find_backend)
  for (size_t i = 0; i < catalog.listed.size(); ++i)
    for (const auto &b : catalog.listed[i].manifest.backends)
      if (backends.insert(lower(b)).second && catalog.listed[i].problem.empty())
        out.insert(i);
  for (const auto &b : config.modules)
    for (size_t i = 0; i < catalog.listed.size(); ++i) {
      const ModuleObject &o = catalog.listed[i];
      bool provides = false;
      for (const auto &[name, title] : o.manifest.modules)
        provides = provides || lower(name) == lower(b.module_name) ||
                   (!title.empty() && lower(title) == lower(b.module_name));
      if (provides) {
        if (o.problem.empty())
          out.insert(i);
        break; // the first object that provides it is the one used (Catalog::find)
      }
    }
  return {out.begin(), out.end()};
}

std::string base_name(const std::string &path) { return path.substr(path.find_last_of('/') + 1); }

/// Broadcasts a string from root over comm.
void bcast_string(MPI_Comm comm, std::string &s, int root) {
  unsigned long long size = s.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, comm);
  s.resize(size);
  for (unsigned long long at = 0; at < size; at += kMaxBytesPerCall)
    MPI_Bcast(s.data() + at,
              static_cast<int>(std::min<unsigned long long>(kMaxBytesPerCall, size - at)), MPI_BYTE,
              root, comm);
}

/// Writes bytes to path, a new file (O_EXCL) in a directory this process made.
void write_new_file(const std::string &path, const std::string &bytes) {
  track_created(path);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out)
    throw Error("cannot write " + path + ": " + std::strerror(errno), "");
}
} // namespace

void StagedModules::stage(MPI_Comm comm, const Config &config, Catalog &catalog) {
  const std::string &parent = config.global.stage_modules;
  if (parent.empty())
    return;
  const auto at = config.global.written.find("StageModules");
  const DirectiveLine &line = at->second.back();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Comm node, leaders;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node.out());
  int node_rank = 0;
  MPI_Comm_rank(node.get(), &node_rank);
  MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, leaders.out());

  const std::vector<size_t> needed = needed_objects(config, catalog);
  std::string error; // this rank's, thrown after the last collective
  if (node_rank == 0) {
    // Rank 0 (the first leader) reads each object once; the bytes reach every node's leader.
    std::string payload;
    if (rank == 0) {
      json objects = json::array();
      for (size_t i : needed) {
        std::ifstream in(catalog.listed[i].path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
          error = "cannot read module object " + catalog.listed[i].path;
          break;
        }
        objects.push_back(json::binary(std::vector<std::uint8_t>(bytes.begin(), bytes.end())));
      }
      const auto packed = json::to_msgpack(error.empty() ? objects : json());
      payload.assign(packed.begin(), packed.end());
    }
    bcast_string(leaders.get(), payload, 0);
    const json objects = json::from_msgpack(payload);
    if (!objects.is_array() && error.empty())
      error = "rank 0 could not read the module objects to stage";
    std::string made;
    if (error.empty()) {
      std::string templ = parent + "/pio-modules.XXXXXX";
      if (!::mkdtemp(templ.data())) {
        error = "StageModules " + parent + ": cannot create a directory in it (" +
                std::strerror(errno) + ")";
      } else {
        made = templ;
        dir_ = made;
        owner_ = true;
        track_created(made);
        try {
          for (size_t k = 0; k < needed.size(); ++k) {
            const ModuleObject &o = catalog.listed[needed[k]];
            const auto &bytes = objects.at(k).get_binary();
            const std::string copy = made + "/" + base_name(o.path);
            files_.push_back(copy);
            write_new_file(copy, std::string(bytes.begin(), bytes.end()));
            if (o.manifest.build_id != "none" && elf_build_id(copy) != o.manifest.build_id)
              throw Error("the copy " + copy + " of " + o.path + " has another build id than " +
                              o.manifest_path + " says",
                          "");
          }
        } catch (const Error &e) {
          error = std::string("StageModules ") + parent + ": " + e.what();
          made.clear();
        }
      }
    }
    bcast_string(node.get(), made, 0);
  } else {
    bcast_string(node.get(), dir_, 0);
    if (dir_.empty())
      error = "StageModules " + parent + ": this node's first rank could not stage the modules";
  }
  if (!error.empty())
    throw ConfigError(line.file, line.line, error,
                      "name an existing, writable node-local directory (e.g. /tmp) on every "
                      "node, or remove StageModules");
  for (size_t i : needed)
    catalog.listed[i].path = dir_ + "/" + base_name(catalog.listed[i].path);
}

void StagedModules::check(MPI_Comm comm, const Config &config) {
  const std::string &parent = config.global.stage_modules;
  if (parent.empty())
    return;
  struct stat st;
  const bool bad = ::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
                   ::access(parent.c_str(), W_OK | X_OK) != 0;
  if (!any_rank(comm, bad))
    return;
  const DirectiveLine &line = config.global.written.find("StageModules")->second.back();
  throw ConfigError(line.file, line.line,
                    "StageModules " + parent + ": not a writable directory on every rank",
                    "name an existing, writable node-local directory (e.g. /tmp) on every "
                    "node, or remove StageModules");
}

StagedModules::~StagedModules() {
  if (!owner_)
    return;
  for (const auto &f : files_) {
    ::unlink(f.c_str());
    untrack_created(f);
  }
  ::rmdir(dir_.c_str());
  untrack_created(dir_);
}

} // namespace pio::harness
