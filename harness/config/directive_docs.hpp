#pragma once
/// Directive specs as text for people: the --list-modules lines and the Markdown reference
/// table that docs/reference/configuration.md contains (a test keeps the two in step).

#include <string>

#include "config/harness_directives.hpp"

namespace pio::harness {

/// One --list-modules line: name, type, [where,] help, default, choices, limits.
std::string directive_listing_line(const DirectiveSpec &spec, const std::string &where = {});

/// "global", "block" or "global, block".
std::string scope_name(DirectiveScope scope);

/// The "harness directives" section of --list-modules.
std::string harness_directives_text();

/// The harness directives as a Markdown table (the generated part of
/// docs/reference/configuration.md; pio-harness --list-directives prints it).
std::string harness_directives_markdown();

} // namespace pio::harness
