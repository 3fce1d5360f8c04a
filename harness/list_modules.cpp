// pio-harness --list-modules: every module found, its directives and their help, then the
// harness's own directives.
#include "config.hpp"
#include "directive_docs.hpp"
#include "loader.hpp"
#include "module_plan.hpp"
#include "run.hpp"

namespace pio::harness {

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
      for (const auto &d : m.directives)
        out << directive_listing_line(d) << "\n";
    }
  }
  out << "\n" << harness_directives_text();
  for (const auto &p : cat.problems)
    out << "\nnot loaded: " << p << "\n";
  for (const auto &w : cat.duplicate_warnings())
    out << "\nwarning: " << w << "\n";
  return cat.libraries.empty() ? 1 : 0;
}

} // namespace pio::harness
