// pio-harness --list-modules: every module found, its directives and their help, then the
// harness's own directives. Each object is opened in a child process, so a broken one (a
// truncated file: SIGBUS; a static initialiser that crashes) is reported by name and the
// listing goes on.
#include <algorithm>
#include <sstream>

#include "config/directive_docs.hpp"
#include "load/catalog.hpp"
#include "load/probe.hpp"
#include "run/listing_path.hpp"
#include "run/run.hpp"

namespace pio::harness {

namespace {

/// The listing of every module in a loaded object.
std::string describe_library(const LoadedLibrary &lib) {
  std::ostringstream out;
  for (const auto &m : *lib.modules) {
    out << "\n" << m.name;
    if (!m.title.empty())
      out << "  \"" << m.title << "\"";
    out << "  (" << lib.path << ")\n  " << m.summary << "\n";
    if (!m.reference.empty())
      out << "  defined in: " << m.reference << "\n";
    for (const auto &d : m.directives)
      out << directive_listing_line(d) << "\n";
  }
  return out.str();
}

} // namespace

int list_modules(const RunOptions &options, std::ostream &out) {
  Catalog cat = scan_listing_path(options, "module search path", out);

  // A manifest's problem is reported below, from the manifest.
  const std::vector<std::string> objects = cat.distinct_objects();
  std::vector<std::string> problems = cat.problems;
  std::vector<std::string> warnings;
  int listed = 0;
  for (const auto &path : objects) {
    ProbeResult l = open_in_child(path, describe_library);
    if (l.problem.empty()) {
      out << l.text;
      ++listed;
    } else {
      problems.push_back(l.problem);
    }
    if (l.problem.empty() &&
        std::find(cat.unlisted.begin(), cat.unlisted.end(), path) != cat.unlisted.end())
      warnings.push_back(path + " has no module manifest (" + manifest_path_for(path) +
                         "): a run opens it only when no manifest provides the module it needs "
                         "(build it with pio_add_module, or write one with pio-manifest " +
                         path + " " + manifest_path_for(path) + ")");
  }
  out << "\n" << harness_directives_text();
  for (const auto &p : problems)
    out << "\nnot loaded: " << p << "\n";
  for (const auto &w : cat.duplicate_warnings())
    out << "\nwarning: " << w << "\n";
  for (const auto &w : warnings)
    out << "\nwarning: " << w << "\n";
  for (const auto &n : cat.notes)
    out << "\nnote: " << n << "\n";
  return listed == 0 ? 1 : 0;
}

} // namespace pio::harness
