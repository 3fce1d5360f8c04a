#include "plan/directive_fault.hpp"

#include <algorithm>
#include <cctype>

namespace pio::harness {

namespace {

bool same_name(const std::string &a, const std::string &b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

} // namespace

ConfigError locate_directive_error(const ModuleBlock &block, const DirectiveError &e) {
  const DirectiveLine *in_effect = nullptr; // the last line setting it wins, as in validation
  for (const auto &d : block.module_directives)
    if (same_name(d.name, e.directive()))
      in_effect = &d;
  if (!in_effect) // a harness setting the module cannot take, e.g. Interface (require)
    for (const auto &d : block.harness_lines)
      if (same_name(d.name, e.directive()))
        in_effect = &d;
  // "Stride: ..." unless the message already starts with the directive's name.
  const std::string what = e.what();
  const size_t n = e.directive().size();
  const bool named = what.size() > n && what.compare(0, n, e.directive()) == 0 &&
                     !std::isalnum(static_cast<unsigned char>(what[n]));
  if (in_effect)
    return ConfigError(in_effect->file, in_effect->line,
                       named ? what : in_effect->name + ": " + what, e.hint());
  return ConfigError(block.file, block.module_name_line ? block.module_name_line : block.line,
                     e.directive() + " (default value): " + what, e.hint());
}

ConfigError locate_backend_error(const ModulePlan &plan, const DirectiveError &e) {
  const ModuleBlock &block = *plan.block;
  for (const auto &o : plan.backend->options) {
    if (!same_name(o.spec.name, e.directive()))
      continue;
    const auto at = plan.backend_lines.find(o.spec.name);
    if (at == plan.backend_lines.end())
      return ConfigError(block.file, block.module_name_line ? block.module_name_line : block.line,
                         o.spec.name + " (default value " + o.spec.default_value + ", Interface " +
                             plan.backend->name + "): " + e.what(),
                         e.hint());
    const std::string what = e.what();
    const bool named = what.rfind(o.spec.name, 0) == 0;
    return ConfigError(at->second.file, at->second.line, named ? what : o.spec.name + ": " + what,
                       e.hint());
  }
  return locate_directive_error(block, e);
}

} // namespace pio::harness
