#include "number_text.hpp"

#include <cerrno>
#include <cstdlib>

namespace pio::replay {

std::optional<std::int64_t> whole_integer(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size())
    return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::optional<double> whole_real(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size())
    return std::nullopt;
  return v;
}

} // namespace pio::replay
