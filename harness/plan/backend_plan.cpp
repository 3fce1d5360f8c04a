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
      throw ConfigError(l.file, l.line, o.spec.name + " cannot be swept", sweep_hint());
}

/// A block's backend, and how messages name it and the block.
struct BlockBackend {
  const io::BackendInfo &backend;
  std::string shown;    ///< "Interface posix (set at f:l)" (interface_text)
  std::string block_at; ///< the block's file:line
};

/// The block's backend: the Interface line in effect (global, the block's, a Sweep's), else the
/// module's default, found in the catalog; sets p.backend and p.backend_library. Throws
/// ConfigError at the Interface line (or the block's) when no backend found has that word.
BlockBackend find_backend(Catalog &catalog, ModulePlan &p) {
  const ModuleBlock &block = *p.block;
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
  return BlockBackend{*p.backend, interface_text(p.backend->name, at, module_default),
                      where(block.file, block.line)};
}

/// A line that is no option of the block's backend but of another backend found: checked
/// against that backend's table, and refused when the option asks for a capability the block's
/// backend lacks and is set away from its default (elsewhere it has no effect here). Returns
/// false when no backend found has the option (the line is the module's).
bool check_other_backends_option(Catalog &catalog, const BlockBackend &b, const ModuleBlock &block,
                                 const DirectiveLine &l) {
  const auto [other, option] = declared_elsewhere(catalog, l.name, &b.backend);
  if (!option)
    return false;
  check_sweepable(block, *option, l);
  const auto words = checked(*option, l);
  if (!option->asks_for || b.backend.capabilities.has(*option->asks_for) ||
      shown_value(option->spec, words) ==
          shown_value(option->spec, check_directive(option->spec, default_words(option->spec))))
    return true; // another backend's setting: without effect here
  const io::Capability c = *option->asks_for;
  // Every backend that declares it (posix's and io_uring's ODirect), in alphabetical order.
  std::vector<std::string> owners;
  for (const io::BackendInfo *o : catalog.all_backends())
    if (option_of(*o, l.name))
      owners.push_back(o->name);
  std::sort(owners.begin(), owners.end());
  std::string names;
  for (size_t k = 0; k < owners.size(); ++k)
    names += (k == 0 ? "" : k + 1 == owners.size() ? " or " : ", ") + owners[k];
  throw ConfigError(l.file, l.line,
                    option->spec.name + " " + shown_value(option->spec, words) +
                        " applies to the block at " + b.block_at + ", which uses " + b.shown +
                        ": " + option->spec.name + " is an option of Interface " + names +
                        " and asks for " + io::describe(c) + " (capability " + io::to_string(c) +
                        "), which Interface " + b.backend.name + " does not offer",
                    "set Interface " + names + " in that block, or remove the " +
                        option->spec.name + " line (or set it to " + option->spec.default_value +
                        " in the blocks of other interfaces)");
}

/// MPI-IO hints only where the backend takes them: a ConfigError at the block's Hint line.
void check_hints_taken(const BlockBackend &b, const ModuleBlock &block) {
  if (block.hints.empty() || b.backend.capabilities.has(io::Capability::Hints))
    return;
  const DirectiveLine *hint = last_line(block.harness_lines, "Hint");
  const std::string key = hint && !hint->args.empty() ? hint->args[0] : block.hints.begin()->first;
  throw ConfigError(hint ? hint->file : block.file, hint ? hint->line : block.line,
                    "Hint " + key + " applies to the block at " + b.block_at + ", which uses " +
                        b.shown + ": Interface " + b.backend.name +
                        " takes no MPI-IO hints (capability hints)",
                    "remove the Hint lines the block gets (global ones too: move them into "
                    "the blocks whose Interface takes hints), or choose another Interface for "
                    "this block");
}

/// CacheMode direct: the backend's O_DIRECT option (a flag asking for Capability::ODirect); a
/// ConfigError at the CacheMode line when the backend has none.
const io::BackendOption &direct_option(const BlockBackend &b, const ModuleBlock &block) {
  const auto &options = b.backend.options;
  const auto direct = std::find_if(options.begin(), options.end(), [](const io::BackendOption &o) {
    return o.asks_for == io::Capability::ODirect && o.spec.type == DirectiveType::Flag;
  });
  if (b.backend.capabilities.has(io::Capability::ODirect) && direct != options.end())
    return *direct;
  const DirectiveLine *cm = last_line(block.harness_lines, "CacheMode");
  throw ConfigError(cm ? cm->file : block.file, cm ? cm->line : block.line,
                    "CacheMode direct cannot bypass the page cache for the block at " + b.block_at +
                        ", which uses " + b.shown + ": Interface " + b.backend.name +
                        " has no O_DIRECT path (capability " +
                        io::to_string(io::Capability::ODirect) + ")",
                    "use CacheMode drop (flush and evict before each read phase), or an "
                    "Interface that offers o_direct (pio-harness --list-interfaces)");
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
  const BlockBackend b = find_backend(catalog, p);
  // The backend's options: defaults, then the global lines, then the block's own.
  std::map<std::string, std::vector<std::string>> values;
  for (const auto &o : b.backend.options)
    if (!o.spec.default_value.empty())
      values[o.spec.name] = check_directive(o.spec, default_words(o.spec));
  std::vector<DirectiveLine> module_lines;
  p.backend_lines.clear();
  auto declared_by_module = [&](const std::string &n) {
    return std::any_of(p.info->directives.begin(), p.info->directives.end(),
                       [&](const DirectiveSpec &d) { return lower(d.name) == lower(n); });
  };
  auto take = [&](const DirectiveLine &l, bool global) {
    if (const io::BackendOption *o = option_of(b.backend, l.name)) {
      check_sweepable(*p.block, *o, l);
      values[o->spec.name] = checked(*o, l); // a later line wins
      p.backend_lines[o->spec.name] = l;
    } else if (!check_other_backends_option(catalog, b, *p.block, l) && !global) {
      module_lines.push_back(l); // the module's to accept or refuse
    }
  };
  for (const auto &l : config.global.backend_lines)
    take(l, true);
  for (const auto &l : lines) {
    if (declared_by_module(l.name))
      module_lines.push_back(l);
    else
      take(l, false);
  }
  check_hints_taken(b, *p.block);
  if (p.block->cache_mode == CacheMode::Direct) {
    const io::BackendOption &direct = direct_option(b, *p.block);
    values[direct.spec.name] = check_directive(direct.spec, {"on"});
  }
  p.interface_settings.clear();
  for (const auto &o : b.backend.options) {
    const auto v = values.find(o.spec.name);
    if (v != values.end())
      p.interface_settings[o.spec.name] = shown_value(o.spec, v->second);
  }
  p.backend_settings = Settings(std::move(values));
  return module_lines;
}

} // namespace pio::harness
