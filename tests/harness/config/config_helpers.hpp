#pragma once
/// Helpers shared by the config tests: write a config file, parse it, get its error.

#include <catch2/catch.hpp>

#include <string>

#include "config/config.hpp"
#include "load/catalog.hpp"
#include "mpi_test.hpp"
#include "plan/backend_plan.hpp"

namespace pio::test {

/// Writes text to dir/name and returns the path.
inline std::string conf(const TempDir &dir, const std::string &name, const std::string &text) {
  write_text(dir.file(name), text);
  return dir.file(name);
}

/// Parses as a run does, with the global lines that are no harness directive then checked
/// against the backends of the build's module directory (a backend's option, or unknown), and
/// returns the ConfigError's message and hint (fails the test if both succeed).
inline std::string error_of(const std::string &path) {
  try {
    const harness::Config config = harness::parse_config(path);
    harness::Catalog catalog = harness::scan_modules({module_dir()});
    harness::check_global_backend_lines(config, catalog);
  } catch (const harness::ConfigError &e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  FAIL("expected a ConfigError for " << path);
  return {};
}

} // namespace pio::test
