// A block's module directives checked against the module's declared specs (module_directives.hpp).
#include "plan/module_directives.hpp"

#include <map>

#include "config/config_error.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/text.hpp"

namespace pio::harness {

Settings validate_module_directives(const ModuleBlock &block, const std::string &module_name,
                                    const std::vector<DirectiveSpec> &accepted,
                                    const std::string &backend_options) {
  std::string accepted_list;
  for (const auto &d : accepted)
    accepted_list += (accepted_list.empty() ? "" : ", ") + d.name;
  std::map<std::string, std::vector<std::string>> values;
  for (const auto &line : block.module_directives) {
    const DirectiveSpec *spec = nullptr;
    for (const auto &d : accepted)
      if (lower(d.name) == lower(line.name))
        spec = &d;
    if (!spec)
      throw ConfigError(
          line.file, line.line,
          "unknown directive '" + line.name + "' for module " + module_name +
              "; it accepts: " + (accepted_list.empty() ? std::string("none") : accepted_list) +
              " (and the block directives " + harness_directive_names(true) +
              (backend_options.empty() ? "" : ", and the options " + backend_options) + ")",
          "check the spelling; pio-harness --list-modules shows each directive");
    try {
      values[spec->name] = check_directive(*spec, line.args); // a later line wins
    } catch (const Error &e) {
      throw ConfigError(line.file, line.line, e.what(), e.hint());
    }
  }
  for (const auto &d : accepted) {
    if (values.count(d.name) || d.default_value.empty())
      continue;
    try {
      values[d.name] = check_directive(d, default_words(d));
    } catch (const Error &e) {
      throw Error("module " + module_name +
                      " declares a default that breaks its own spec: " + e.what(),
                  "a bug in the module: fix its DirectiveSpec for " + d.name + "; meanwhile set " +
                      d.name + " in the block");
    }
  }
  return Settings(std::move(values));
}

} // namespace pio::harness
