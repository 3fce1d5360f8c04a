#pragma once
/// A block's module directives checked against what the module declares.

#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

/// Validates a block's module directives against what the module declares (type, count, choices,
/// limits) and fills in defaults. Throws ConfigError naming file:line, the directive, the value
/// and what is accepted; throws pio::Error when a declared default breaks its own spec (a module
/// bug).
/// `backend_options` names the options of the block's backend for the unknown-directive message
/// ("ODirect (Interface posix)"; "" when it has none).
Settings validate_module_directives(const ModuleBlock &block, const std::string &module_name,
                                    const std::vector<DirectiveSpec> &accepted,
                                    const std::string &backend_options = {});

} // namespace pio::harness
