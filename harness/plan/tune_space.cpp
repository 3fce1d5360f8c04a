// pio-tune's search space (tune_space.hpp): built from the blocks' Tune lines once their modules
// are known, so that a value is checked by the very spec that will check it in a trial.
#include "plan/tune_space.hpp"

#include <algorithm>
#include <cctype>

#include "config/config_error.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/sweep.hpp"
#include "config/text.hpp"
#include "config/tune_hook.hpp"
#include "config/values.hpp"

namespace pio::harness {

namespace {

using Kind = TuneParam::Kind;

std::string where(const DirectiveLine &l) { return l.file + ":" + std::to_string(l.line); }

bool all_digits(const std::string &s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string join(const std::vector<std::string> &v, const char *sep = " ") {
  std::string out;
  for (const auto &s : v)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

/// A range's domain: an Integer range, or a Ladder of doubling sizes. Bounds are checked by
/// `check` (the directive's spec), a Ladder's every value too.
template <class Check>
void set_range(TuneParam &p, const TuneValues &v, bool sizes, const Check &check) {
  if (!sizes) {
    p.kind = Kind::Integer;
    p.low = parse_integer(check(v.from));
    p.high = parse_integer(check(v.to));
    p.log = !v.linear;
    if (p.high <= p.low)
      throw Error("the range " + v.from + ".." + v.to + " is empty",
                  "write the smaller bound first, e.g. 1..64");
    if (p.log && p.low < 1)
      throw Error("a log-scale range starts at 1 or more, not " + v.from,
                  "start at 1, or write linear after the range");
    return;
  }
  if (v.linear)
    throw Error("a size range doubles (4K, 8K ... ): it has no linear scale",
                "remove linear, or list the sizes you want");
  p.kind = Kind::Ladder;
  for (const auto &s : sweep_values({v.from + ".." + v.to}))
    p.values.push_back(check(s));
  if (p.values.size() < 2)
    throw Error("the range " + v.from + ".." + v.to + " holds one size only",
                "widen it, e.g. " + v.from + ".." + format_size(parse_size(v.from) * 8));
}

/// The declared spec of `name` among a module's directives, then its backend's options, or
/// nullptr.
const DirectiveSpec *module_spec(const ModulePlan &p, const std::string &name) {
  for (const auto &d : p.info->directives)
    if (lower(d.name) == lower(name))
      return &d;
  if (p.backend)
    for (const auto &o : p.backend->options)
      if (lower(o.spec.name) == lower(name))
        return &o.spec;
  return nullptr;
}

/// The type of one value of the directive (a list's element type): flag, integer, size, number,
/// text.
std::string type_of(const DirectiveSpec &spec) {
  std::string t = type_name(spec.type);
  return t.size() > 3 && t.compare(t.size() - 3, 3, "...") == 0 ? t.substr(0, t.size() - 3) : t;
}

/// One Tune line of one block as a parameter (its domain; no uses yet).
TuneParam declared(const DirectiveLine &line, bool global, const ModulePlan &plan) {
  const TuneValues v = check_tune_words(line.args, global);
  TuneParam p;
  std::string key;
  p.target = tune_target(line.args[0], key);
  p.global = global;
  if (p.target == TuneTarget::Hint || p.target == TuneTarget::Hook) {
    p.name = (p.target == TuneTarget::Hint ? "Hint:" : "Hook:") + key;
    p.type = "text";
    if (v.is_range()) {
      const bool integers = all_digits(v.from) && all_digits(v.to);
      p.type = integers ? "integer" : "size";
      set_range(p, v, !integers, [](const std::string &s) { return s; });
    } else {
      p.values = v.choices;
    }
    return p;
  }
  const DirectiveSpec *spec = p.target == TuneTarget::Harness
                                  ? &find_harness_directive(line.args[0])->spec
                                  : module_spec(plan, line.args[0]);
  if (!spec) {
    std::string names;
    for (const auto &d : plan.info->directives)
      names += (names.empty() ? "" : ", ") + d.name;
    throw Error("module " + plan.info->name + " has no directive " + line.args[0] +
                    " to tune (it has: " + (names.empty() ? "none" : names) + "), nor has " +
                    "its Interface " + (plan.backend ? plan.backend->name : std::string("?")) +
                    " such an option",
                "check the spelling (pio-harness --list-modules lists each module's directives, "
                "--list-interfaces each backend's options), or tune a harness setting or "
                "Hint:<key>");
  }
  p.name = spec->name;
  p.type = type_of(*spec);
  const auto check = [&](const std::string &s) {
    const std::string v = check_directive(*spec, {s}).at(0);
    return spec->type == DirectiveType::Flag ? std::string(parse_flag(v) ? "on" : "off") : v;
  };
  if (!v.is_range()) {
    for (const auto &c : v.choices)
      p.values.push_back(check(c));
    for (size_t i = 0; i < p.values.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (p.values[i] == p.values[j])
          throw Error("the values " + v.choices[j] + " and " + v.choices[i] + " are the same " +
                          spec->name + " setting",
                      "list each setting once");
    return p;
  }
  if (p.type != "integer" && p.type != "size")
    throw Error(spec->name + " is a " + type_name(spec->type) +
                    " directive: a range needs an integer or size directive",
                "list its values instead, e.g. Tune " + spec->name + " " +
                    (spec->type == DirectiveType::Flag ? "on off" : "<value> <value>"));
  set_range(p, v, p.type == "size", check);
  return p;
}

bool same_domain(const TuneParam &a, const TuneParam &b) {
  auto as_set = [](std::vector<std::string> v) { // choices in any order are the same choices
    std::sort(v.begin(), v.end());
    return v;
  };
  return a.kind == b.kind && as_set(a.values) == as_set(b.values) && a.low == b.low &&
         a.high == b.high && a.log == b.log;
}

/// The line that sweeps `name` in an expanded block (its value's line), for messages.
DirectiveLine swept_line(const ModuleBlock &b, const std::string &name) {
  std::string key;
  const bool hint = hint_target(name, key);
  DirectiveLine found{name, {}, b.file, b.line};
  for (const auto &l : b.harness_lines)
    if (hint ? l.name == "Hint" && !l.args.empty() && l.args[0] == key
             : lower(l.name) == lower(name))
      found = l;
  for (const auto &l : b.module_directives)
    if (lower(l.name) == lower(name))
      found = l;
  return found;
}

std::string domain_text(const TuneParam &p) {
  if (p.kind == Kind::Integer)
    return std::to_string(p.low) + ".." + std::to_string(p.high) + (p.log ? "" : " linear");
  return join(p.values);
}

/// The value a block gives a parameter without pio-tune ("" = not set).
std::string default_of(const TuneParam &p, const ModulePlan &plan) {
  const ModuleBlock &b = *plan.block;
  switch (p.target) {
  case TuneTarget::Hook:
    return "";
  case TuneTarget::Hint: {
    const auto it = b.hints.find(p.name.substr(5));
    return it == b.hints.end() ? "" : it->second;
  }
  case TuneTarget::Harness: {
    const DirectiveLine *l = setting_line(b, p.name);
    const DirectiveSpec &spec = find_harness_directive(p.name)->spec;
    return l && !l->args.empty() ? check_directive(spec, l->args).at(0) : spec.default_value;
  }
  case TuneTarget::Module: {
    for (const Settings *s : {&plan.settings, &plan.backend_settings}) {
      const auto &all = s->all();
      const auto it = all.find(p.name);
      if (it != all.end())
        return join(it->second);
    }
    return "";
  }
  }
  return "";
}

bool is_global_line(const Config &config, const DirectiveLine &l) {
  const auto it = config.global.written.find("Tune");
  if (it == config.global.written.end())
    return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const DirectiveLine &g) { return g.file == l.file && g.line == l.line; });
}

TuneParam *find_param(std::vector<TuneParam> &params, const std::string &name) {
  for (auto &p : params)
    if (lower(p.name) == lower(name))
      return &p;
  return nullptr;
}

const TuneParam *find_param(const std::vector<TuneParam> &params, const std::string &name) {
  return find_param(const_cast<std::vector<TuneParam> &>(params), name);
}

/// The parameter a TuneHook placeholder names: its name, or a Hook: value's name alone.
const TuneParam *placeholder_param(const TuneSpace &s, const std::string &name) {
  if (const TuneParam *p = find_param(s.params, name))
    return p;
  return find_param(s.params, "Hook:" + name);
}

void add_hooks(const Config &config, TuneSpace &space) {
  const auto it = config.global.written.find("TuneHook");
  if (it != config.global.written.end())
    for (const auto &line : it->second) {
      TuneHook h{line.args.at(0), {}, line};
      for (const auto &n : hook_placeholders(h.command)) {
        if (lower(n) != "trial" && !placeholder_param(space, n))
          throw ConfigError(line.file, line.line,
                            "TuneHook: {" + n + "} names no Tune line (declared: " +
                                (space.params.empty() ? std::string("none") : tune_names(space)) +
                                ")",
                            "declare it, e.g. Tune Hook:" + n + " 1 2 4, or write {trial}");
        h.names.push_back(n);
      }
      space.hooks.push_back(std::move(h));
    }
  for (const auto &p : space.params) {
    if (p.target != TuneTarget::Hook)
      continue;
    const bool used = std::any_of(space.hooks.begin(), space.hooks.end(), [&](const TuneHook &h) {
      return std::any_of(h.names.begin(), h.names.end(),
                         [&](const std::string &n) { return placeholder_param(space, n) == &p; });
    });
    if (!used) {
      const DirectiveLine &l = p.uses.at(0).second;
      throw ConfigError(l.file, l.line,
                        p.name + " is used by no TuneHook: nothing would apply its value",
                        "add TuneHook \"<command> {" + p.name.substr(5) +
                            "}\" outside the blocks, or remove this line");
    }
  }
}

} // namespace

const char *to_string(TuneParam::Kind k) {
  switch (k) {
  case TuneParam::Kind::Choice:
    return "choice";
  case TuneParam::Kind::Ladder:
    return "ladder";
  case TuneParam::Kind::Integer:
    return "integer";
  }
  return "?";
}

std::string tune_names(const TuneSpace &space) {
  std::vector<std::string> names;
  for (const auto &p : space.params)
    names.push_back(p.name);
  return join(names, ", ");
}

TuneSpace tune_space(const Config &config, const std::vector<ModulePlan> &plans) {
  TuneSpace space;
  for (size_t i = 0; i < plans.size(); ++i) {
    const ModulePlan &plan = plans[i];
    const ModuleBlock &block = *plan.block;
    for (const auto &line : block.harness_lines) {
      if (line.name != "Tune")
        continue;
      TuneParam p;
      try {
        p = declared(line, is_global_line(config, line), plan);
      } catch (const ConfigError &) {
        throw;
      } catch (const Error &e) { // named by its Tune line's name, unless the message starts so
        const std::string what = e.what();
        const bool named = line.args.empty() || what.rfind("Tune", 0) == 0;
        throw ConfigError(line.file, line.line, named ? what : "Tune " + line.args[0] + ": " + what,
                          e.hint());
      }
      for (const auto &[name, value] : block.swept)
        if (lower(name) == lower(p.name))
          throw ConfigError(line.file, line.line,
                            p.name + " is both swept (at " + where(swept_line(block, name)) +
                                ") and tuned here",
                            "remove the Sweep line or this Tune line");
      TuneParam *known = find_param(space.params, p.name);
      if (known && !same_domain(*known, p))
        throw ConfigError(line.file, line.line,
                          "Tune " + p.name + " here (" + domain_text(p) + ") differs from Tune " +
                              p.name + " at " + where(known->uses.at(0).second) + " (" +
                              domain_text(*known) + ")",
                          "one name is one setting of the search: write the same values in both "
                          "places, or one Tune line outside the blocks");
      if (!known) {
        space.params.push_back(p);
        known = &space.params.back();
      }
      const bool seen = std::any_of(known->uses.begin(), known->uses.end(),
                                    [&](const auto &u) { return u.first == static_cast<int>(i); });
      if (seen) { // a block's own line after a global one of the same name: the block's wins
        for (auto &u : known->uses)
          if (u.first == static_cast<int>(i))
            u.second = line;
        continue;
      }
      known->uses.emplace_back(static_cast<int>(i), line);
      known->defaults.push_back(default_of(*known, plan));
    }
  }
  add_hooks(config, space);
  return space;
}

std::map<std::string, std::string>
apply_tune_values(Config &config, const TuneSpace &space,
                  const std::vector<std::string> &assignments,
                  const std::function<bool(const std::string &interface)> &takes_hints) {
  std::map<std::string, std::string> set;
  std::vector<std::pair<const TuneParam *, std::string>> chosen_values;
  for (const auto &a : assignments) {
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq),
                      value = eq == std::string::npos ? "" : a.substr(eq + 1);
    const TuneParam *p = eq == std::string::npos ? nullptr : find_param(space.params, name);
    if (!p)
      throw Error("--tune " + a + ": " +
                      (eq == std::string::npos ? std::string("not NAME=VALUE")
                                               : "the config declares no Tune " + name) +
                      " (it declares: " + (space.params.empty() ? "none" : tune_names(space)) + ")",
                  "write --tune NAME=VALUE with the name of a Tune line, e.g. --tune "
                  "Collective=on");
    if (set.count(p->name))
      throw Error("--tune " + name + " is given twice", "give each Tune name once");
    std::string chosen;
    if (p->kind == Kind::Integer) {
      std::int64_t n = 0;
      try {
        n = parse_integer(value);
      } catch (const Error &) {
        n = p->low - 1;
      }
      if (n >= p->low && n <= p->high)
        chosen = std::to_string(n);
    } else {
      for (const auto &v : p->values)
        if (lower(v) == lower(value) ||
            (p->kind == Kind::Ladder && all_digits(value) && parse_size(v) == parse_size(value)))
          chosen = v;
    }
    if (chosen.empty())
      throw Error("--tune " + a + ": " + value + " is not among the values of Tune " + p->name +
                      " at " + where(p->uses.at(0).second) + " (" + domain_text(*p) + ")",
                  "give one of them");
    set[p->name] = chosen;
    chosen_values.emplace_back(p, chosen);
  }
  // Hints last, once each block's interface is known: a block whose backend takes no MPI-IO hint
  // (capability hints: POSIX) would refuse it, and a tuned hint has no effect there: not set.
  std::stable_partition(chosen_values.begin(), chosen_values.end(),
                        [](const auto &c) { return c.first->target != TuneTarget::Hint; });
  for (const auto &[p, chosen] : chosen_values) {
    if (p->target == TuneTarget::Hook)
      continue; // for the TuneHook commands pio-tune runs
    for (const auto &[index, line] : p->uses) {
      ModuleBlock &b = config.modules.at(static_cast<size_t>(index));
      if (p->target == TuneTarget::Hint && !takes_hints(b.interface))
        continue;
      try {
        set_block_value(b, p->name, chosen, line.file, line.line);
      } catch (const Error &e) {
        throw ConfigError(line.file, line.line, e.what(), e.hint());
      }
    }
  }
  return set;
}

} // namespace pio::harness
