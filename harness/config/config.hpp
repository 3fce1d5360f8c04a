#pragma once
/// Reading the site config (thesis §3.2.3, Tables 3.1-3.3) with Dotconf.

#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "config/config_model.hpp"

namespace pio::harness {

/// Parses the config at path. Throws ConfigError (file:line, directive, what is accepted) on any
/// error: unknown global directive, bad value, block without ModuleName, unclosed block, bad
/// Include.
Config parse_config(const std::string &path);

/// Parses the config at path from the files another process read (Config::sources of its
/// parse_config, in the order it read them): no file is opened here, Includes resolve to the
/// next of these, and ${VAR}s keep the values that process expanded (the broadcast start-up:
/// rank 0 reads, the other ranks parse its texts). Throws ConfigError as parse_config does.
Config parse_config(const std::string &path, const std::vector<ConfigSource> &read_before);

} // namespace pio::harness
