#pragma once
/// Reading the site config (thesis §3.2.3, Tables 3.1-3.3) with Dotconf.

#include <string>

#include "config/config_error.hpp"
#include "config/config_model.hpp"

namespace pio::harness {

/// Parses the config at path. Throws ConfigError (file:line, directive, what is accepted) on any
/// error: unknown global directive, bad value, block without ModuleName, unclosed block, bad
/// Include.
Config parse_config(const std::string &path);

} // namespace pio::harness
