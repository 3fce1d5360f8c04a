// The search space as JSON (tune_space_json.hpp).
#include "report/tune_space_json.hpp"

#include "report/results_file.hpp"

namespace pio::harness {

namespace {

std::string where(const DirectiveLine &l) { return l.file + ":" + std::to_string(l.line); }

} // namespace

nlohmann::json tune_space_json(const TuneSpace &space, const Config &config,
                               const std::vector<ModulePlan> &plans) {
  nlohmann::json params = nlohmann::json::array(), hooks = nlohmann::json::array(),
                 blocks = nlohmann::json::array();
  for (const auto &p : space.params) {
    nlohmann::json j = {{"name", p.name},
                        {"target", to_string(p.target)},
                        {"kind", to_string(p.kind)},
                        {"type", p.type},
                        {"global", p.global}};
    if (p.kind == TuneParam::Kind::Integer)
      j.update({{"low", p.low}, {"high", p.high}, {"log", p.log}});
    else
      j["values"] = p.values;
    nlohmann::json uses = nlohmann::json::array();
    for (size_t i = 0; i < p.uses.size(); ++i) {
      const auto &[index, line] = p.uses[i];
      uses.push_back({{"block", plans.at(static_cast<size_t>(index)).label},
                      {"declared", where(line)},
                      {"default", p.defaults.at(i)}});
    }
    j["uses"] = uses;
    params.push_back(j);
  }
  for (const auto &h : space.hooks)
    hooks.push_back({{"command", h.command}, {"names", h.names}, {"declared", where(h.line)}});
  for (const auto &p : plans)
    blocks.push_back({{"label", p.label},
                      {"module", p.info->name},
                      {"config", p.block->file + ":" + std::to_string(p.block->line)}});
  return {{"config", config.path},
          {"rounds", config.global.rounds},
          {"params", params},
          {"hooks", hooks},
          {"blocks", blocks}};
}

void write_tune_space(const std::string &path, const TuneSpace &space, const Config &config,
                      const std::vector<ModulePlan> &plans) {
  ResultsFile(path, true, "tune space file", "give --tune-space a file in a writable directory")
      .save(tune_space_json(space, config, plans));
}

} // namespace pio::harness
