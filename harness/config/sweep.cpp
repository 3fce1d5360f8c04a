// Sweeps in the config (see sweep.hpp): checked as read, expanded after the whole config is read
// (block flags and hints take their global defaults first), validated per expanded block by the
// module plan like any other directive line.
#include "config/sweep.hpp"

#include <algorithm>
#include <cctype>

#include "config/config_error.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/values.hpp"

#include "config/text.hpp"

namespace pio::harness {

namespace {

/// The most blocks one Sweep block may expand to: more is a typo, not an experiment.
constexpr size_t kMaxSweepBlocks = 4096;

/// One dimension of a sweep, ready to apply.
struct Dimension {
  enum class Kind { Flag, Hint, Module } kind = Kind::Module;
  std::string name; ///< as shown: the flag's declared name, Hint:<key>, the module directive
  std::string key;  ///< the hint key
  std::vector<std::string> values;
  const DirectiveLine *line = nullptr;
};

Dimension dimension(const DirectiveLine &sweep) {
  Dimension d;
  d.line = &sweep;
  d.name = sweep.args.at(0);
  const bool hint = hint_target(d.name, d.key);
  d.values =
      sweep_values(std::vector<std::string>(sweep.args.begin() + 1, sweep.args.end()), !hint);
  if (hint) {
    d.kind = Dimension::Kind::Hint;
    d.name = "Hint:" + d.key;
  } else if (sweepable(d.name)) {
    d.kind = Dimension::Kind::Flag;
    const DirectiveSpec &spec = find_harness_directive(d.name)->spec;
    d.name = spec.name;
    for (auto &v : d.values) // each value as the directive's own line would take it
      v = check_directive(spec, {v}).at(0);
  }
  return d;
}

void apply(ModuleBlock &b, const Dimension &d, const std::string &value) {
  b.swept.emplace_back(d.name, value);
  set_block_value(b, d.name, value, d.line->file, d.line->line);
}

std::string where(const DirectiveLine &l) { return l.file + ":" + std::to_string(l.line); }

/// The block's sweep dimensions; throws ConfigError for a directive swept twice, or set and swept.
std::vector<Dimension> dimensions(const ModuleBlock &block) {
  std::vector<Dimension> dims;
  for (const auto &s : block.sweeps) {
    Dimension d;
    try {
      d = dimension(s);
    } catch (const Error &e) {
      throw ConfigError(s.file, s.line, e.what(), e.hint());
    }
    for (const auto &prev : dims)
      if (lower(prev.name) == lower(d.name))
        throw ConfigError(s.file, s.line,
                          d.name + " is swept twice (also at " + where(*prev.line) + ")",
                          "write all its values on one Sweep line");
    if (d.kind == Dimension::Kind::Module)
      for (const auto &l : block.module_directives)
        if (lower(l.name) == lower(d.name))
          throw ConfigError(s.file, s.line,
                            d.name + " is both set (at " + where(l) + ") and swept here",
                            "remove one of the two lines");
    dims.push_back(std::move(d));
  }
  return dims;
}

} // namespace

void set_block_value(ModuleBlock &b, const std::string &name, const std::string &value,
                     const std::string &file, int line) {
  std::string key;
  if (hint_target(name, key)) { // as a Hint line of the block stores it
    b.harness_lines.push_back(DirectiveLine{"Hint", {key, value}, file, line});
    set_in_block(*find_harness_directive("Hint"), b, {key, value}, file, line);
    return;
  }
  if (!sweepable(name)) { // a module directive: this line replaces the block's own
    auto &lines = b.module_directives;
    lines.erase(
        std::remove_if(lines.begin(), lines.end(),
                       [&](const DirectiveLine &l) { return lower(l.name) == lower(name); }),
        lines.end());
    lines.push_back(DirectiveLine{name, {value}, file, line});
    return;
  }
  const HarnessDirective &d = *find_harness_directive(name);
  const std::vector<std::string> words = check_directive(d.spec, {value});
  b.harness_lines.push_back(DirectiveLine{d.spec.name, words, file, line});
  set_in_block(d, b, words, file, line);
}

void expand_sweeps(Config &config) {
  std::vector<ModuleBlock> out;
  for (auto &block : config.modules) {
    if (block.sweeps.empty()) {
      out.push_back(std::move(block));
      continue;
    }
    const auto dims = dimensions(block);
    size_t total = 1;
    for (const auto &d : dims) {
      total *= d.values.size();
      if (total > kMaxSweepBlocks)
        throw ConfigError(d.line->file, d.line->line,
                          "the Sweep lines of this block make more than " +
                              std::to_string(kMaxSweepBlocks) + " blocks",
                          "sweep fewer values, or split the experiment into several runs");
    }
    std::vector<size_t> at(dims.size(), 0);
    for (size_t n = 0; n < total; ++n) {
      ModuleBlock e = block;
      e.sweeps.clear();
      for (size_t i = 0; i < dims.size(); ++i)
        apply(e, dims[i], dims[i].values[at[i]]);
      out.push_back(std::move(e));
      for (size_t i = dims.size(); i-- > 0;) { // the last Sweep line varies fastest
        if (++at[i] < dims[i].values.size())
          break;
        at[i] = 0;
      }
    }
  }
  config.modules = std::move(out);
}

} // namespace pio::harness
