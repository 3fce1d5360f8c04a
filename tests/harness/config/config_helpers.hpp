#pragma once
/// Helpers shared by the config tests: write a config file, parse it, get its error.

#include <catch2/catch.hpp>

#include <string>

#include "config/config.hpp"
#include "mpi_test.hpp"

namespace pio::test {

/// Writes text to dir/name and returns the path.
inline std::string conf(const TempDir &dir, const std::string &name, const std::string &text) {
  write_text(dir.file(name), text);
  return dir.file(name);
}

/// Parses and returns the ConfigError's message and hint (fails the test if parsing succeeds).
inline std::string error_of(const std::string &path) {
  try {
    harness::parse_config(path);
  } catch (const harness::ConfigError &e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  FAIL("expected a ConfigError for " << path);
  return {};
}

} // namespace pio::test
