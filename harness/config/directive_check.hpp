#pragma once
/// Checks directive values against a DirectiveSpec (type, count, choices, limits), for the
/// harness's own directives and for module directives alike.

#include <string>
#include <vector>

#include "pio/directive.hpp"

namespace pio::harness {

/// Checks the words written for spec and returns them in canonical form (a bare flag becomes
/// "on", a choice takes its declared spelling). Throws pio::Error naming the directive, the value
/// and what is accepted; the caller adds file:line.
std::vector<std::string> check_directive(const DirectiveSpec &spec, std::vector<std::string> words);

/// True for the list types (Integers, Sizes, Texts).
bool is_list(DirectiveType type);

/// The type as users read it: "flag", "integer", "size", "number", "text", "size..." etc.
std::string type_name(DirectiveType type);

/// The limits in words ("at least 1 and at most 1000000; at most 8 values"), "" when none.
std::string describe_limits(const DirectiveSpec &spec);

/// A limit as the user would write it: sizes as "64K", whole numbers without a decimal point.
std::string format_limit(const DirectiveSpec &spec, double limit);

/// The default's words (none when the default is ""), as the config would write them.
std::vector<std::string> default_words(const DirectiveSpec &spec);

/// Problems with a spec itself (limits on a non-numeric type, min above max, a default that
/// fails its own check), one sentence each; empty when the spec is sound.
std::vector<std::string> spec_problems(const DirectiveSpec &spec);

} // namespace pio::harness
