// pio-harness --list-modules: every module found, its directives and their help.
#include <iomanip>

#include "config.hpp"
#include "loader.hpp"
#include "module_plan.hpp"
#include "run.hpp"

namespace pio::harness {

namespace {
const char *type_name(DirectiveType t) {
  switch (t) {
  case DirectiveType::Flag:
    return "on|off";
  case DirectiveType::Integer:
    return "integer";
  case DirectiveType::Size:
    return "size";
  case DirectiveType::Real:
    return "number";
  case DirectiveType::Text:
    return "text";
  case DirectiveType::Integers:
    return "integer...";
  case DirectiveType::Sizes:
    return "size...";
  case DirectiveType::Texts:
    return "text...";
  }
  return "?";
}
} // namespace

int list_modules(const RunOptions &options, std::ostream &out) {
  Config config; // no config needed: only the search path matters
  if (!options.config_path.empty())
    config = parse_config(options.config_path);
  const auto dirs = module_search_path(options.module_dirs, config);
  Catalog cat = scan_modules(dirs);
  out << "module search path:";
  for (const auto &d : dirs)
    out << " " << d;
  out << "\n";
  for (const auto &lib : cat.libraries) {
    for (const auto &m : *lib.modules) {
      out << "\n" << m.name;
      if (!m.title.empty())
        out << "  \"" << m.title << "\"";
      out << "  (" << lib.path << ")\n  " << m.summary << "\n";
      if (!m.reference.empty())
        out << "  defined in: " << m.reference << "\n";
      out << "  " << (m.needs_file ? "uses the test file" : "no file (communication only)") << "\n";
      for (const auto &d : m.directives) {
        out << "    " << std::left << std::setw(18) << d.name << std::setw(12) << type_name(d.type)
            << d.help;
        if (!d.default_value.empty())
          out << " [default: " << d.default_value << "]";
        if (!d.choices.empty()) {
          out << " {";
          for (size_t i = 0; i < d.choices.size(); ++i)
            out << (i ? ", " : "") << d.choices[i];
          out << "}";
        }
        out << "\n";
      }
    }
  }
  for (const auto &p : cat.problems)
    out << "\nnot loaded: " << p << "\n";
  return cat.libraries.empty() ? 1 : 0;
}

} // namespace pio::harness
