// Directive values against their DirectiveSpec: the one place that decides what a value may be,
// so harness and module directives give the same messages (what, the accepted range, how to fix).
#include "config/directive_check.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "config/text.hpp"

namespace pio::harness {

namespace {

bool is_numeric(DirectiveType t) {
  return t == DirectiveType::Integer || t == DirectiveType::Integers || t == DirectiveType::Size ||
         t == DirectiveType::Sizes || t == DirectiveType::Real;
}

bool is_size(DirectiveType t) { return t == DirectiveType::Size || t == DirectiveType::Sizes; }

std::string join(const std::vector<std::string> &v) {
  std::string out;
  for (const auto &s : v)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// What one value of this type looks like, for "write ..." hints.
std::string value_words(const DirectiveSpec &spec) {
  switch (spec.type) {
  case DirectiveType::Flag:
    return "on or off";
  case DirectiveType::Integer:
    return "a whole number";
  case DirectiveType::Integers:
    return "whole numbers";
  case DirectiveType::Size:
    return "a byte count with an optional K, M, G or T suffix";
  case DirectiveType::Sizes:
    return "byte counts with an optional K, M, G or T suffix";
  case DirectiveType::Real:
    return "a finite number";
  case DirectiveType::Text:
  case DirectiveType::Texts:
    return spec.choices.empty() ? std::string("a value") : "one of " + join(spec.choices);
  }
  return "a value";
}

/// How to fix a bad value: what to write, the limits, and the directive's help.
std::string fix_hint(const DirectiveSpec &spec) {
  std::string limits = describe_limits(spec);
  return "write " + value_words(spec) + (limits.empty() ? "" : ", " + limits) + "; " + spec.name +
         ": " + spec.help;
}

/// True when w is a sign and digits (then an optional suffix) whose number exceeds 64 bits.
bool leading_integer_overflows(const std::string &w) {
  size_t i = (!w.empty() && (w[0] == '+' || w[0] == '-')) ? 1 : 0;
  size_t j = i;
  while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j])))
    ++j;
  if (j == i)
    return false;
  errno = 0;
  (void)std::strtoll(w.substr(0, j).c_str(), nullptr, 10);
  return errno == ERANGE;
}

/// A number without a size suffix: whole numbers without a decimal point, others the shortest
/// form that reads back exactly.
std::string plain_number(double x) {
  char buf[64];
  if (std::floor(x) == x && std::fabs(x) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x)
      break;
  }
  return buf;
}

/// A limit for an error message: sizes also in bytes ("2G (2147483648 bytes)").
std::string limit_in_message(const DirectiveSpec &spec, double limit) {
  const std::string s = format_limit(spec, limit);
  const std::string bytes = plain_number(limit);
  return is_size(spec.type) && s != bytes ? s + " (" + bytes + " bytes)" : s;
}

/// Throws the Error for a bad word: the directive and what is wrong, then how to fix it.
[[noreturn]] void refuse(const DirectiveSpec &spec, const std::string &what,
                         const std::string &hint = {}) {
  if (hint.empty())
    throw Error(spec.name + ": " + what, fix_hint(spec));
  const std::string limits = describe_limits(spec);
  throw Error(spec.name + ": " + what,
              hint + (limits.empty() ? "" : "; " + spec.name + " accepts " + limits));
}

/// Runs a pio::parse_* function, turning its Error into one naming the directive.
template <class F> auto parse_or_refuse(const DirectiveSpec &spec, F parse) {
  try {
    return parse();
  } catch (const Error &e) {
    refuse(spec, e.what(), e.hint());
  }
}

/// Checks one word; returns its canonical spelling. Throws Error.
std::string check_word(const DirectiveSpec &spec, const std::string &w) {
  long double value = 0;
  switch (spec.type) {
  case DirectiveType::Flag:
    parse_or_refuse(spec, [&] { return parse_flag(w); });
    return w;
  case DirectiveType::Integer:
  case DirectiveType::Integers:
    if (leading_integer_overflows(w))
      refuse(spec, "'" + w + "' does not fit in a 64-bit integer");
    value = static_cast<long double>(parse_or_refuse(spec, [&] { return parse_integer(w); }));
    break;
  case DirectiveType::Size:
  case DirectiveType::Sizes:
    if (leading_integer_overflows(w))
      refuse(spec, "'" + w + "' does not fit in 64 bits");
    value = static_cast<long double>(parse_or_refuse(spec, [&] { return parse_size(w); }));
    break;
  case DirectiveType::Real: {
    char *end = nullptr;
    errno = 0;
    (void)std::strtod(w.c_str(), &end);
    if (!w.empty() && end && *end == '\0' && errno == ERANGE)
      refuse(spec, "'" + w + "' is out of the range of a floating-point number");
    const double d = parse_or_refuse(spec, [&] { return parse_real(w); });
    // strtod also reads hexadecimal (0x10 = 16, 0x1p4): a config value is decimal.
    if (w.find_first_of("xX") != std::string::npos)
      refuse(spec, "'" + w + "' is not a decimal number");
    if (!std::isfinite(d))
      refuse(spec, "'" + w + "' is not a finite number");
    value = d;
    break;
  }
  case DirectiveType::Text:
  case DirectiveType::Texts: {
    if (spec.choices.empty())
      return w;
    auto it = std::find_if(spec.choices.begin(), spec.choices.end(),
                           [&](const std::string &c) { return lower(c) == lower(w); });
    if (it == spec.choices.end())
      refuse(spec, "'" + w + "' is not one of " + join(spec.choices),
             "write one of: " + join(spec.choices));
    return *it;
  }
  }
  if (spec.min && value < static_cast<long double>(*spec.min))
    throw Error(spec.name + " " + w + " is below the minimum " + limit_in_message(spec, *spec.min),
                fix_hint(spec));
  if (spec.max && value > static_cast<long double>(*spec.max))
    throw Error(spec.name + " " + w + " is above the maximum " + limit_in_message(spec, *spec.max),
                fix_hint(spec));
  return w;
}

} // namespace

bool is_list(DirectiveType type) {
  return type == DirectiveType::Integers || type == DirectiveType::Sizes ||
         type == DirectiveType::Texts;
}

std::string type_name(DirectiveType type) {
  switch (type) {
  case DirectiveType::Flag:
    return "flag";
  case DirectiveType::Integer:
    return "integer";
  case DirectiveType::Size:
    return "size";
  case DirectiveType::Real:
    return "number";
  case DirectiveType::Text:
    return "text";
  case DirectiveType::Integers:
    return "integer...";
  case DirectiveType::Sizes:
    return "size...";
  case DirectiveType::Texts:
    return "text...";
  }
  return "?";
}

std::string format_limit(const DirectiveSpec &spec, double limit) {
  if (is_size(spec.type) && limit >= 0 && limit < 9.2e18 && std::floor(limit) == limit)
    return format_size(static_cast<std::int64_t>(limit));
  return plain_number(limit);
}

std::string describe_limits(const DirectiveSpec &spec) {
  std::string out;
  if (spec.min && spec.max)
    out = "at least " + format_limit(spec, *spec.min) + " and at most " +
          format_limit(spec, *spec.max);
  else if (spec.min)
    out = "at least " + format_limit(spec, *spec.min);
  else if (spec.max)
    out = "at most " + format_limit(spec, *spec.max);
  if (spec.max_count > 0)
    out += (out.empty() ? "" : "; ") + std::string("at most ") + std::to_string(spec.max_count) +
           (spec.max_count == 1 ? " value" : " values");
  return out;
}

std::vector<std::string> check_directive(const DirectiveSpec &spec,
                                         std::vector<std::string> words) {
  const bool list = is_list(spec.type);
  if (spec.type == DirectiveType::Flag && words.empty())
    words = {"on"}; // a bare toggle, as the thesis writes ShowAverages
  if (words.empty() || (!list && words.size() != 1))
    throw Error(spec.name + " takes " + (list ? "one or more values" : "one value") + ", got " +
                    std::to_string(words.size()),
                fix_hint(spec));
  if (list && spec.max_count > 0 && words.size() > static_cast<size_t>(spec.max_count))
    throw Error(spec.name + " takes at most " + std::to_string(spec.max_count) + " values, got " +
                    std::to_string(words.size()),
                "give at most " + std::to_string(spec.max_count) + " values; " + spec.name + ": " +
                    spec.help);
  for (auto &w : words)
    w = check_word(spec, w);
  return words;
}

std::vector<std::string> default_words(const DirectiveSpec &spec) {
  std::istringstream s(spec.default_value);
  std::vector<std::string> words;
  for (std::string w; s >> w;)
    words.push_back(w);
  return words;
}

std::vector<std::string> spec_problems(const DirectiveSpec &spec) {
  std::vector<std::string> out;
  const std::string who = "directive " + spec.name + ": ";
  if (spec.name.empty())
    out.push_back("a directive without a name");
  if ((spec.min || spec.max) && !is_numeric(spec.type))
    out.push_back(who + "min/max limits on a " + type_name(spec.type) + " directive");
  if ((spec.min && std::isnan(*spec.min)) || (spec.max && std::isnan(*spec.max)))
    out.push_back(who + "a NaN limit");
  if (spec.min && spec.max && *spec.min > *spec.max)
    out.push_back(who + "min " + format_limit(spec, *spec.min) + " is above max " +
                  format_limit(spec, *spec.max));
  if (spec.max_count < 0 || (spec.max_count > 0 && !is_list(spec.type)))
    out.push_back(who + "max_count " + std::to_string(spec.max_count) + " on a " +
                  type_name(spec.type) + " directive");
  if (!spec.choices.empty() && spec.type != DirectiveType::Text &&
      spec.type != DirectiveType::Texts)
    out.push_back(who + "choices on a " + type_name(spec.type) + " directive");
  if (!spec.default_value.empty()) {
    try {
      check_directive(spec, default_words(spec));
    } catch (const Error &e) {
      out.push_back(who + "its default '" + spec.default_value + "' is refused: " + e.what());
    }
  }
  return out;
}

} // namespace pio::harness
