#pragma once
/// Directives a module declares, and the validated values the harness hands it.

#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pio/enum_words.hpp"
#include "pio/error.hpp"

namespace pio {

/// The type of a module directive's value(s); the harness validates config values against it.
enum class DirectiveType {
  Flag,     ///< on/off, yes/no, true/false, 1/0
  Integer,  ///< signed 64-bit integer
  Size,     ///< byte count with optional K/M/G/T suffix (powers of 1024)
  Real,     ///< floating point
  Text,     ///< one string
  Integers, ///< one or more integers
  Sizes,    ///< one or more sizes
  Texts,    ///< one or more strings
};

/// A directive a module (or the harness) accepts, with the limits the harness enforces: a value
/// outside them is a config error naming file:line, the directive and the accepted range.
struct DirectiveSpec {
  std::string name;                      ///< as written in the config (matched case-insensitively)
  DirectiveType type;                    ///< value type
  std::string default_value;             ///< default, in config syntax ("" = no default: optional)
  std::string help;                      ///< one line for --list-modules and error messages
  std::vector<std::string> choices = {}; ///< for Text/Texts: the accepted values (empty = any)
  std::optional<double> min = {}; ///< numeric types: smallest accepted value (bytes for sizes)
  std::optional<double> max = {}; ///< numeric types: largest accepted value
  int max_count = 0;              ///< list types: most values accepted (0 = any)

  /// This spec with a lower limit: `DirectiveSpec{...}.at_least(1)`.
  DirectiveSpec at_least(double lo) && {
    min = lo;
    return std::move(*this);
  }
  /// This spec with an upper limit.
  DirectiveSpec at_most(double hi) && {
    max = hi;
    return std::move(*this);
  }
  /// This spec with both limits.
  DirectiveSpec between(double lo, double hi) && {
    min = lo;
    max = hi;
    return std::move(*this);
  }
};

/// Parses "64K", "1M", "2G", "4096" into bytes; throws Error on bad syntax or overflow.
inline std::int64_t parse_size(const std::string &text) {
  const std::string hint = "write a non-negative byte count with an optional K, M, G or T suffix "
                           "(powers of 1024), e.g. 4096, 64K, 1M";
  size_t pos = 0;
  long long n = 0;
  try {
    n = std::stoll(text, &pos, 10);
  } catch (const std::exception &) {
    throw Error("'" + text + "' is not a size", hint);
  }
  if (n < 0)
    throw Error("'" + text + "' is negative", hint);
  std::string suffix = text.substr(pos);
  if (suffix.size() == 2 && (suffix[1] == 'B' || suffix[1] == 'b'))
    suffix.pop_back();
  int shift = 0;
  if (suffix.empty() || suffix == "B" || suffix == "b")
    shift = 0;
  else if (suffix.size() == 1 && std::strchr("kK", suffix[0]))
    shift = 10;
  else if (suffix.size() == 1 && std::strchr("mM", suffix[0]))
    shift = 20;
  else if (suffix.size() == 1 && std::strchr("gG", suffix[0]))
    shift = 30;
  else if (suffix.size() == 1 && std::strchr("tT", suffix[0]))
    shift = 40;
  else
    throw Error("'" + text + "' has an unknown size suffix '" + suffix + "'", hint);
  if (n > (std::numeric_limits<std::int64_t>::max() >> shift))
    throw Error("'" + text + "' does not fit in 64 bits", hint);
  return static_cast<std::int64_t>(n) << shift;
}

/// Parses on/off, yes/no, true/false, 1/0 (case-insensitive); throws Error otherwise.
inline bool parse_flag(const std::string &text) {
  const std::string t = lower_ascii(text);
  if (t == "on" || t == "yes" || t == "true" || t == "1")
    return true;
  if (t == "off" || t == "no" || t == "false" || t == "0")
    return false;
  throw Error("'" + text + "' is not on/off", "write on or off (also yes/no, true/false, 1/0)");
}

/// Parses a signed 64-bit integer; throws Error otherwise.
inline std::int64_t parse_integer(const std::string &text) {
  size_t pos = 0;
  long long n = 0;
  try {
    n = std::stoll(text, &pos, 10);
  } catch (const std::exception &) {
    pos = 0;
  }
  if (pos == 0 || pos != text.size())
    throw Error("'" + text + "' is not an integer", "write a whole number, e.g. 10");
  return n;
}

/// Parses a double; throws Error otherwise.
inline double parse_real(const std::string &text) {
  size_t pos = 0;
  double d = 0;
  try {
    d = std::stod(text, &pos);
  } catch (const std::exception &) {
    pos = 0;
  }
  if (pos == 0 || pos != text.size())
    throw Error("'" + text + "' is not a number", "write a number, e.g. 2.5");
  return d;
}

/// Formats bytes as the shortest exact "64K"/"1M"/"4096" form.
inline std::string format_size(std::int64_t bytes) {
  const char *suffix[] = {"", "K", "M", "G", "T"};
  int k = 0;
  while (k < 4 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++k;
  }
  return std::to_string(bytes) + suffix[k];
}

/// The values of a module's directives for one <ap_module> block: config values where given,
/// declared defaults otherwise. Already validated against the DirectiveSpecs by the harness.
class Settings {
public:
  Settings() = default;
  /// values: directive name (as declared) -> its argument words.
  explicit Settings(std::map<std::string, std::vector<std::string>> values)
      : values_(std::move(values)) {}
  /// True when the directive has a value (given or defaulted).
  bool has(const std::string &name) const { return values_.count(name) != 0; }
  /// The raw words of a directive; throws Error if it has none.
  const std::vector<std::string> &words(const std::string &name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty())
      throw Error("directive " + name + " has no value", "set " + name + " in the module block");
    return it->second;
  }
  bool flag(const std::string &name) const { return parse_flag(words(name).at(0)); }
  std::int64_t integer(const std::string &name) const { return parse_integer(words(name).at(0)); }
  std::int64_t size(const std::string &name) const { return parse_size(words(name).at(0)); }
  double real(const std::string &name) const { return parse_real(words(name).at(0)); }
  std::string text(const std::string &name) const { return words(name).at(0); }
  std::vector<std::int64_t> integers(const std::string &name) const {
    std::vector<std::int64_t> out;
    for (const auto &w : words(name))
      out.push_back(parse_integer(w));
    return out;
  }
  std::vector<std::int64_t> sizes(const std::string &name) const {
    std::vector<std::int64_t> out;
    for (const auto &w : words(name))
      out.push_back(parse_size(w));
    return out;
  }
  std::vector<std::string> texts(const std::string &name) const { return words(name); }
  /// All values, for the results document.
  const std::map<std::string, std::vector<std::string>> &all() const { return values_; }

private:
  std::map<std::string, std::vector<std::string>> values_;
};

} // namespace pio
