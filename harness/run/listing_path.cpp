#include "run/listing_path.hpp"

#include "config/config.hpp"
#include "plan/module_plan.hpp"

namespace pio::harness {

Catalog scan_listing_path(const RunOptions &options, const char *title, std::ostream &out) {
  Config config; // no config needed: only the search path matters
  if (!options.config_path.empty())
    config = parse_config(options.config_path);
  const auto dirs = module_search_path(options.module_dirs, config);
  Catalog cat = scan_modules(dirs);
  out << title << ":";
  for (const auto &d : dirs)
    out << " " << d;
  out << "\n";
  out.flush();
  return cat;
}

} // namespace pio::harness
