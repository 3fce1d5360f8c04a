// Directive specs rendered for people: --list-modules and the docs table come from the same
// specs the parser checks values against, so they cannot drift apart.
#include "config/directive_docs.hpp"

#include <iomanip>
#include <sstream>

#include "config/directive_check.hpp"

namespace pio::harness {

namespace {

/// A Markdown table cell: '|' escaped so it does not end the cell, '<' '>' so that "<key>" is
/// not read as HTML.
std::string cell(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? "\\|" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return out;
}

std::string code(const std::string &s) { return s.empty() ? "" : "`" + s + "`"; }

} // namespace

std::string scope_name(DirectiveScope scope) {
  switch (scope) {
  case DirectiveScope::Global:
    return "global";
  case DirectiveScope::Block:
    return "block";
  case DirectiveScope::Both:
    return "global, block";
  }
  return "?";
}

std::string directive_listing_line(const DirectiveSpec &spec, const std::string &where) {
  std::ostringstream out;
  // A name of 19 characters or more still gets a space before its type.
  out << "    " << std::left << std::setw(19)
      << (spec.name.size() < 19 ? spec.name : spec.name + " ") << std::setw(12)
      << (spec.type == DirectiveType::Flag ? std::string("on|off") : type_name(spec.type));
  if (!where.empty())
    out << std::setw(15) << where;
  out << spec.help;
  if (!spec.default_value.empty())
    out << " [default: " << spec.default_value << "]";
  if (!spec.choices.empty()) {
    out << " {";
    for (size_t i = 0; i < spec.choices.size(); ++i)
      out << (i ? ", " : "") << spec.choices[i];
    out << "}";
  }
  const std::string limits = describe_limits(spec);
  if (!limits.empty())
    out << " [" << limits << "]";
  return out.str();
}

std::string harness_directives_text() {
  std::string out = "harness directives (global: outside blocks; block: inside <ap_module>, "
                    "overriding the global value):\n";
  for (const auto &d : harness_directives())
    out += directive_listing_line(d.spec, scope_name(d.scope)) + "\n";
  return out;
}

std::string harness_directives_markdown() {
  std::string out = "| directive | where | type | default | limits | meaning |\n"
                    "|---|---|---|---|---|---|\n";
  for (const auto &d : harness_directives()) {
    const std::string meaning =
        d.spec.help + (d.origin.rfind("thesis", 0) == 0 ? " (" + d.origin + ")" : "");
    out += "| " + code(d.spec.name + (d.syntax.empty() ? "" : " " + d.syntax)) + " | " +
           scope_name(d.scope) + " | " + type_name(d.spec.type) + " | " +
           cell(code(d.spec.default_value)) + " | " + cell(describe_limits(d.spec)) + " | " +
           cell(meaning) + " |\n";
  }
  return out;
}

} // namespace pio::harness
