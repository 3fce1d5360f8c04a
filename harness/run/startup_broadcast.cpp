// The broadcast start-up's one serialization (startup_broadcast.hpp): MessagePack through
// nlohmann-json, whose strings carry any bytes (a config may hold non-UTF-8 text).
#include "run/startup_broadcast.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

#include "pio/error.hpp"

namespace pio::harness {

namespace {
using nlohmann::json;

json to_json(const ConfigSource &s) {
  json vars = json::array();
  for (const auto &v : s.variables)
    vars.push_back({v.name, v.value, v.set, v.from_default, v.file, v.line});
  return {{"path", s.path},
          {"from", s.included_from},
          {"raw", s.raw},
          {"sanitized", s.sanitized},
          {"vars", vars}};
}

ConfigSource source_from(const json &j) {
  ConfigSource s;
  s.path = j.at("path").get<std::string>();
  s.included_from = j.at("from").get<std::string>();
  s.raw = j.at("raw").get<std::string>();
  s.sanitized = j.at("sanitized").get<std::string>();
  for (const auto &v : j.at("vars"))
    s.variables.push_back(ConfigVariable{v.at(0).get<std::string>(), v.at(1).get<std::string>(),
                                         v.at(2).get<bool>(), v.at(3).get<bool>(),
                                         v.at(4).get<std::string>(), v.at(5).get<int>()});
  return s;
}

// The fingerprint is plain data of one executable's build: its bytes are the same on every rank.
json to_json(const AbiFingerprint &abi) {
  const auto *p = reinterpret_cast<const std::uint8_t *>(&abi);
  return json::binary(std::vector<std::uint8_t>(p, p + sizeof abi));
}

AbiFingerprint abi_from(const json &j) {
  const auto &bytes = j.get_binary();
  if (bytes.size() != sizeof(AbiFingerprint))
    throw Error("broadcast start-up: an ABI fingerprint of the wrong size",
                "run every rank with the same pio-harness");
  AbiFingerprint abi{};
  std::memcpy(&abi, bytes.data(), sizeof abi);
  return abi;
}

json to_json(const ModuleObject &o) {
  json modules = json::array();
  for (const auto &[name, title] : o.manifest.modules)
    modules.push_back({name, title});
  return {{"path", o.path},
          {"manifest_path", o.manifest_path},
          {"format", o.manifest.format},
          {"object", o.manifest.object},
          {"api", o.manifest.api_version},
          {"abi", to_json(o.manifest.abi)},
          {"build_id", o.manifest.build_id},
          {"modules", modules},
          {"backends", o.manifest.backends},
          {"problem", o.problem},
          {"hint", o.hint}};
}

ModuleObject object_from(const json &j) {
  ModuleObject o;
  o.path = j.at("path").get<std::string>();
  o.manifest_path = j.at("manifest_path").get<std::string>();
  o.manifest.format = j.at("format").get<int>();
  o.manifest.object = j.at("object").get<std::string>();
  o.manifest.api_version = j.at("api").get<int>();
  o.manifest.abi = abi_from(j.at("abi"));
  o.manifest.build_id = j.at("build_id").get<std::string>();
  for (const auto &m : j.at("modules"))
    o.manifest.modules.emplace_back(m.at(0).get<std::string>(), m.at(1).get<std::string>());
  o.manifest.backends = j.at("backends").get<std::vector<std::string>>();
  o.problem = j.at("problem").get<std::string>();
  o.hint = j.at("hint").get<std::string>();
  return o;
}
} // namespace

std::string startup_to_bytes(const StartupInputs &in) {
  json j = {{"ok", in.ok}};
  if (in.ok) {
    json sources = json::array(), listed = json::array();
    for (const auto &s : in.sources)
      sources.push_back(to_json(s));
    for (const auto &o : in.catalog.listed)
      listed.push_back(to_json(o));
    j["sources"] = sources;
    j["listed"] = listed;
    j["unlisted"] = in.catalog.unlisted;
    j["problems"] = in.catalog.problems;
    j["duplicates"] = in.catalog.duplicates;
    j["backend_duplicates"] = in.catalog.backend_duplicates;
    j["notes"] = in.catalog.notes;
  }
  const std::vector<std::uint8_t> bytes = json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

StartupInputs startup_from_bytes(const std::string &bytes) {
  StartupInputs in;
  try {
    const json j = json::from_msgpack(bytes);
    in.ok = j.at("ok").get<bool>();
    if (!in.ok)
      return in;
    for (const auto &s : j.at("sources"))
      in.sources.push_back(source_from(s));
    for (const auto &o : j.at("listed"))
      in.catalog.listed.push_back(object_from(o));
    in.catalog.unlisted = j.at("unlisted").get<std::vector<std::string>>();
    in.catalog.problems = j.at("problems").get<std::vector<std::string>>();
    in.catalog.duplicates =
        j.at("duplicates").get<std::map<std::string, std::vector<std::string>>>();
    in.catalog.backend_duplicates =
        j.at("backend_duplicates").get<std::map<std::string, std::vector<std::string>>>();
    in.catalog.notes = j.at("notes").get<std::vector<std::string>>();
  } catch (const json::exception &e) {
    throw Error(std::string("broadcast start-up: rank 0's inputs cannot be read: ") + e.what(),
                "run every rank with the same pio-harness");
  }
  return in;
}

void broadcast_startup(MPI_Comm comm, StartupInputs &inputs) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string bytes;
  if (rank == 0)
    bytes = startup_to_bytes(inputs);
  unsigned long long size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  bytes.resize(size);
  // One MPI_Bcast per at most 1 GiB (the count is an int).
  constexpr unsigned long long kChunk = 1ULL << 30;
  for (unsigned long long at = 0; at < size; at += kChunk)
    MPI_Bcast(bytes.data() + at, static_cast<int>(std::min(kChunk, size - at)), MPI_BYTE, 0, comm);
  if (rank != 0)
    inputs = startup_from_bytes(bytes);
}

} // namespace pio::harness
