#pragma once
/// The search space as JSON for pio-tune (pio-harness --tune-space FILE, docs/guides/tuning.md):
/// what it searches, where each name is declared, which blocks it applies to and their own values.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/tune_space.hpp"

namespace pio::harness {

/// {"config", "params": [...], "hooks": [...], "blocks": [...]} (docs/guides/tuning.md, "The
/// space").
nlohmann::json tune_space_json(const TuneSpace &space, const Config &config,
                               const std::vector<ModulePlan> &plans);

/// Writes tune_space_json to path (replacing a file there; it is an output pio-tune asked for).
/// Throws pio::Error naming the path.
void write_tune_space(const std::string &path, const TuneSpace &space, const Config &config,
                      const std::vector<ModulePlan> &plans);

} // namespace pio::harness
