#pragma once
/// Reading a setting's word: ASCII lower case, and the enumerated value whose one spelling
/// (`to_string`, beside each enum) a word names in any case.

#include <cctype>
#include <initializer_list>
#include <optional>
#include <string>

namespace pio {

/// `text` in lower case (ASCII letters only; directive words are ASCII).
inline std::string lower_ascii(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The value among `values` whose `to_string` is `word` in any case, if one is.
template <class Values>
auto enum_named(const std::string &word, const Values &values)
    -> std::optional<typename Values::value_type> {
  const std::string w = lower_ascii(word);
  for (const auto v : values)
    if (w == to_string(v))
      return v;
  return std::nullopt;
}

/// As above, for a list written out: enum_named(word, {Mode::A, Mode::B}).
template <class E>
std::optional<E> enum_named(const std::string &word, std::initializer_list<E> values) {
  return enum_named<std::initializer_list<E>>(word, values);
}

} // namespace pio
