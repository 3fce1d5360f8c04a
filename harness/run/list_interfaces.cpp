// pio-harness --list-interfaces: every I/O backend found on the module path, with its
// capabilities and its options (the block directives it takes). As --list-modules, each object
// is opened in a child process, so a broken one is reported by name and the listing goes on.
#include <algorithm>
#include <sstream>

#include "config/directive_docs.hpp"
#include "load/catalog.hpp"
#include "load/probe.hpp"
#include "run/listing_path.hpp"
#include "run/run.hpp"

namespace pio::harness {

namespace {

/// The listing of every backend in a loaded object.
std::string describe_backends(const LoadedLibrary &lib) {
  std::ostringstream out;
  for (const auto &b : *lib.backends) {
    out << "\n" << b.name << "  (" << lib.path << ")\n  " << b.summary << "\n";
    if (!b.reference.empty())
      out << "  model: " << b.reference << "\n";
    std::string lacks;
    for (io::Capability c : io::kCapabilities)
      if (!b.capabilities.has(c))
        lacks += (lacks.empty() ? "" : ", ") + std::string(io::to_string(c));
    out << "  capabilities: " << b.capabilities.words() << "\n"
        << "  lacks: " << (lacks.empty() ? "nothing" : lacks) << "\n";
    out << "  options (block or global directives):" << (b.options.empty() ? " none" : "") << "\n";
    for (const auto &o : b.options) {
      std::string notes;
      if (!o.sweepable)
        notes += " (not sweepable)";
      if (o.asks_for)
        notes += std::string(" (asks for ") + io::to_string(*o.asks_for) + ")";
      out << directive_listing_line(o.spec) << notes << "\n";
    }
  }
  return out.str();
}

} // namespace

int list_interfaces(const RunOptions &options, std::ostream &out) {
  Catalog cat = scan_listing_path(options, "backend search path (the module path)", out);

  std::vector<std::string> objects; // those listing a backend, each build once, then unlisted
  for (const auto &path : cat.distinct_objects()) {
    const auto o = std::find_if(cat.listed.begin(), cat.listed.end(),
                                [&](const ModuleObject &l) { return l.path == path; });
    if (o == cat.listed.end() || !o->manifest.backends.empty())
      objects.push_back(path);
  }
  std::vector<std::string> problems;
  for (const auto &o : cat.listed)
    if (!o.problem.empty() && !o.manifest.backends.empty())
      problems.push_back(o.problem + " (" + o.hint + ")");
  int found = 0;
  for (const auto &path : objects) {
    const ProbeResult l = open_in_child(path, describe_backends);
    if (!l.problem.empty())
      problems.push_back(l.problem);
    else if (!l.text.empty()) {
      out << l.text;
      ++found;
    }
  }
  for (const auto &p : problems)
    out << "\nnot loaded: " << p << "\n";
  for (const auto &[name, paths] : cat.backend_duplicates)
    out << "\nwarning: backend " << name << " is provided by " << paths.size()
        << " objects; the first on the path is used: " << paths.front() << "\n";
  if (found == 0)
    out << "\nno backend found (pio-bench installs mpiio, posix and hdf5 beside its modules; add "
           "a backend's directory with -M / --module-path)\n";
  return found == 0 ? 1 : 0;
}

} // namespace pio::harness
