// A block's backend and its options (backend_plan.hpp): everything known of a backend comes from
// its BackendInfo, found through the catalog by the block's Interface word.
#include "plan/backend_plan.hpp"

#include <algorithm>

#include "config/config_error.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/text.hpp"
#include "config/values.hpp"

namespace pio::harness {

namespace {

std::string where(const std::string &file, int line) { return file + ":" + std::to_string(line); }

/// The option of b called name (case-insensitive), or nullptr.
const io::BackendOption *option_of(const io::BackendInfo &b, const std::string &name) {
  for (const auto &o : b.options)
    if (lower(o.spec.name) == lower(name))
      return &o;
  return nullptr;
}

/// The first backend found (other than `except`) that has an option called name, with it.
std::pair<const io::BackendInfo *, const io::BackendOption *>
declared_elsewhere(Catalog &catalog, const std::string &name, const io::BackendInfo *except) {
  for (const io::BackendInfo *b : catalog.all_backends())
    if (b != except)
      if (const io::BackendOption *o = option_of(*b, name))
        return {b, o};
  return {nullptr, nullptr};
}

/// The line's words checked against the option's spec; a ConfigError at the line otherwise.
std::vector<std::string> checked(const io::BackendOption &o, const DirectiveLine &l) {
  try {
    return check_directive(o.spec, l.args);
  } catch (const Error &e) {
    throw ConfigError(l.file, l.line, e.what(), e.hint());
  }
}

/// The last line among `lines` named `name`, or nullptr.
const DirectiveLine *last_line(const std::vector<DirectiveLine> &lines, const std::string &name) {
  const DirectiveLine *found = nullptr;
  for (const auto &l : lines)
    if (lower(l.name) == lower(name))
      found = &l;
  return found;
}

/// "Interface posix (set at f:l)" or "Interface mpiio (the default)" / "(the module's default)".
std::string interface_text(const std::string &name, const DirectiveLine *at, bool module_default) {
  return "Interface " + name +
         (at               ? " (set at " + where(at->file, at->line) + ")"
          : module_default ? " (the module's default)"
                           : " (the default)");
}

/// The word of every backend found, in alphabetical order: "a, b, c".
std::string backend_list(const Catalog &catalog) {
  auto names = catalog.backend_names();
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

/// Whether a swept value of the block came from this line (a Sweep line makes a directive line
/// at its own file:line): the swept option must be sweepable.
void check_sweepable(const ModuleBlock &block, const io::BackendOption &o, const DirectiveLine &l) {
  if (o.sweepable)
    return;
  for (const auto &[name, value] : block.swept)
    if (lower(name) == lower(o.spec.name))
      throw ConfigError(l.file, l.line, o.spec.name + " cannot be swept", kSweepHint);
}

} // namespace

void check_global_backend_lines(const Config &config, Catalog &catalog) {
  for (const auto &l : config.global.backend_lines) {
    const auto [backend, option] = declared_elsewhere(catalog, l.name, nullptr);
    if (!option) {
      std::string options;
      for (const io::BackendInfo *b : catalog.all_backends())
        for (const auto &o : b->options)
          options += ", " + o.spec.name;
      throw ConfigError(l.file, l.line, "unknown directive '" + l.name + "'",
                        "global directives are: " + harness_directive_names(false) + options +
                            " (the backends' options), <ap_module>; module directives go inside "
                            "<ap_module>");
    }
    checked(*option, l);
  }
}

std::vector<DirectiveLine> plan_backend(const Config &config,
                                        const std::vector<DirectiveLine> &lines, Catalog &catalog,
                                        ModulePlan &p) {
  const ModuleBlock &block = *p.block;
  // The Interface line in effect (global, the block's, a Sweep's), else the module's default.
  const DirectiveLine *at = last_line(block.harness_lines, "Interface");
  const bool module_default = !at && !p.info->default_interface.empty();
  const std::string name = module_default ? lower(p.info->default_interface) : block.interface;
  const std::string at_file = at ? at->file : block.file;
  const int at_line =
      at ? at->line : (block.module_name_line ? block.module_name_line : block.line);
  try {
    p.backend = catalog.find_backend(name, &p.backend_library);
  } catch (const Error &e) {
    throw ConfigError(at_file, at_line, e.what(), e.hint());
  }
  if (!p.backend) {
    std::string problems;
    for (const auto &pr : catalog.problems)
      problems += pr + "; ";
    throw ConfigError(
        at_file, at_line,
        (problems.empty() ? "" : "module files not loaded: " + problems) + "Interface '" + name +
            "' is not one of " + backend_list(catalog) +
            (module_default ? " (the default interface of module " + p.info->name + ")" : ""),
        "write one of them (pio-harness --list-interfaces lists the backends found, "
        "their options and capabilities), or add a backend's directory with "
        "ModulePath / --module-path");
  }
  const io::BackendInfo &backend = *p.backend;
  const std::string shown = interface_text(backend.name, at, module_default);
  const std::string block_at = where(block.file, block.line);

  // The backend's options: defaults, then the global lines, then the block's own.
  std::map<std::string, std::vector<std::string>> values;
  for (const auto &o : backend.options)
    if (!o.spec.default_value.empty())
      values[o.spec.name] = check_directive(o.spec, default_words(o.spec));
  std::vector<DirectiveLine> module_lines;
  auto declared_by_module = [&](const std::string &n) {
    return std::any_of(p.info->directives.begin(), p.info->directives.end(),
                       [&](const DirectiveSpec &d) { return lower(d.name) == lower(n); });
  };
  auto take = [&](const DirectiveLine &l, bool global) {
    if (const io::BackendOption *o = option_of(backend, l.name)) {
      check_sweepable(block, *o, l);
      values[o->spec.name] = checked(*o, l); // a later line wins
      return;
    }
    const auto [other, option] = declared_elsewhere(catalog, l.name, &backend);
    if (!option) {
      if (!global)
        module_lines.push_back(l); // the module's to accept or refuse
      return;
    }
    check_sweepable(block, *option, l);
    const auto words = checked(*option, l);
    if (!option->asks_for || backend.capabilities.has(*option->asks_for) ||
        shown_value(option->spec, words) ==
            shown_value(option->spec, check_directive(option->spec, default_words(option->spec))))
      return; // another backend's setting: without effect here
    const io::Capability c = *option->asks_for;
    throw ConfigError(l.file, l.line,
                      option->spec.name + " " + shown_value(option->spec, words) +
                          " applies to the block at " + block_at + ", which uses " + shown + ": " +
                          option->spec.name + " is an option of Interface " + other->name +
                          " and asks for " + io::describe(c) + " (capability " + io::to_string(c) +
                          "), which Interface " + backend.name + " does not offer",
                      "set Interface " + other->name + " in that block, or remove the " +
                          option->spec.name + " line (or set it to " + option->spec.default_value +
                          " in the blocks of other interfaces)");
  };
  for (const auto &l : config.global.backend_lines)
    take(l, true);
  for (const auto &l : lines) {
    if (declared_by_module(l.name))
      module_lines.push_back(l);
    else
      take(l, false);
  }

  // MPI-IO hints only where the backend takes them.
  if (!block.hints.empty() && !backend.capabilities.has(io::Capability::Hints)) {
    const DirectiveLine *hint = last_line(block.harness_lines, "Hint");
    const std::string key =
        hint && !hint->args.empty() ? hint->args[0] : block.hints.begin()->first;
    throw ConfigError(hint ? hint->file : block.file, hint ? hint->line : block.line,
                      "Hint " + key + " applies to the block at " + block_at + ", which uses " +
                          shown + ": Interface " + backend.name +
                          " takes no MPI-IO hints (capability hints)",
                      "remove the Hint lines the block gets (global ones too: move them into "
                      "the blocks whose Interface takes hints), or choose another Interface for "
                      "this block");
  }
  // CacheMode direct: the backend's O_DIRECT option on, where it has one.
  if (block.cache_mode == CacheMode::Direct) {
    const auto direct = std::find_if(
        backend.options.begin(), backend.options.end(), [](const io::BackendOption &o) {
          return o.asks_for == io::Capability::ODirect && o.spec.type == DirectiveType::Flag;
        });
    if (!backend.capabilities.has(io::Capability::ODirect) || direct == backend.options.end()) {
      const DirectiveLine *cm = last_line(block.harness_lines, "CacheMode");
      throw ConfigError(cm ? cm->file : block.file, cm ? cm->line : block.line,
                        "CacheMode direct cannot bypass the page cache for the block at " +
                            block_at + ", which uses " + shown + ": Interface " + backend.name +
                            " has no O_DIRECT path (capability " +
                            io::to_string(io::Capability::ODirect) + ")",
                        "use CacheMode drop (flush and evict before each read phase), or an "
                        "Interface that offers o_direct (pio-harness --list-interfaces)");
    }
    values[direct->spec.name] = check_directive(direct->spec, {"on"});
  }
  p.interface_settings.clear();
  for (const auto &o : backend.options) {
    const auto v = values.find(o.spec.name);
    if (v != values.end())
      p.interface_settings[o.spec.name] = shown_value(o.spec, v->second);
  }
  p.backend_settings = Settings(std::move(values));
  return module_lines;
}

} // namespace pio::harness
