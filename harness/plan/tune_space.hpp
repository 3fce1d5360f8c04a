#pragma once
/// pio-tune's search space as the config declares it (Tune and TuneHook lines), validated once
/// the blocks' modules are known: every value checked by the tuned directive's spec at the Tune
/// line's file:line, the same name declared alike wherever it is written, every TuneHook
/// placeholder a declared name. pio-tune reads the space the harness prints (--tune-space) and
/// gives each trial its values back (--tune NAME=VALUE), which the harness checks and sets as a
/// one-value Sweep would, without changing the blocks' labels.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "config/tune_lines.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// One dimension of the search.
struct TuneParam {
  /// How pio-tune searches it.
  enum class Kind {
    Choice,  ///< one of `values` (unordered)
    Ladder,  ///< one of `values`, a doubling ladder of sizes (ordered: a log scale)
    Integer, ///< a whole number from `low` to `high`, on a log scale unless !log
  };
  std::string name; ///< Hint:<key>, Hook:<name>, or the directive's declared name
  TuneTarget target = TuneTarget::Module;
  Kind kind = Kind::Choice;
  std::string type;                ///< the values' type: flag, integer, size, number, text
  std::vector<std::string> values; ///< Choice, Ladder: as checked (a flag as on/off)
  std::int64_t low = 0, high = 0;  ///< Integer: the bounds
  bool log = true;                 ///< Integer: log scale
  bool global = false;             ///< declared outside a block: every block
  /// The blocks (indices into Config::modules) it applies to, with the Tune line of each.
  std::vector<std::pair<int, DirectiveLine>> uses;
  /// Per block it applies to, the value the config itself gives it ("" = not set: for a hint,
  /// the MPI library's own; for a hook, the file system as it is).
  std::vector<std::string> defaults;
};

/// A TuneHook line: the command pio-tune runs before each trial.
struct TuneHook {
  std::string command;            ///< as written, {name} placeholders included
  std::vector<std::string> names; ///< the placeholders, each a parameter's name or "trial"
  DirectiveLine line;             ///< where it is written
};

/// The kind as pio-tune reads it: "choice", "ladder" or "integer".
const char *to_string(TuneParam::Kind k);

/// The declared search space of a config.
struct TuneSpace {
  std::vector<TuneParam> params; ///< in the order first declared
  std::vector<TuneHook> hooks;   ///< in the order written
};

/// Builds and checks the space from the config's Tune and TuneHook lines (empty if none).
/// Throws ConfigError at the line at fault: a value its directive refuses, a range the
/// directive's type cannot have, a directive the block's module lacks, a name both swept and
/// tuned in a block, one name declared with different values, a TuneHook placeholder that names
/// no Tune line, a Hook: value no TuneHook uses.
TuneSpace tune_space(const Config &config, const std::vector<ModulePlan> &plans);

/// Checks `NAME=VALUE` assignments (--tune) against the space and sets each value in the
/// blocks its parameter applies to (set_block_value, at the Tune line); a hint is not set in a
/// block whose Interface (the trial's) takes no MPI-IO hints (`takes_hints` of its word false,
/// e.g. posix: the value has no effect there). Returns the values as given, by parameter name.
/// Throws pio::Error naming the assignment and what the space accepts.
std::map<std::string, std::string>
apply_tune_values(Config &config, const TuneSpace &space,
                  const std::vector<std::string> &assignments,
                  const std::function<bool(const std::string &interface)> &takes_hints);

/// "Collective, Hint:cb_buffer_size (2 more)" for notes: the parameters' names.
std::string tune_names(const TuneSpace &space);

} // namespace pio::harness
