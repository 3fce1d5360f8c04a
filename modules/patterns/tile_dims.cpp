#include "pio/patterns/tile_dims.hpp"

#include <climits>

#include "pio/error.hpp"

namespace pio::patterns {

std::vector<std::int64_t> parse_dims(const std::string &text, int rank,
                                     const std::string &directive, bool allow_zero) {
  const std::string form = rank == 2 ? "XxY, e.g. 64x32, or one number for a square"
                                     : "XxYxZ, e.g. 8x8x8, or one number for a cube";
  std::vector<std::int64_t> dims;
  size_t start = 0;
  while (true) {
    const size_t x = text.find_first_of("xX", start);
    const std::string word = text.substr(start, x == std::string::npos ? x : x - start);
    size_t pos = 0;
    long long n = 0;
    try {
      n = std::stoll(word, &pos, 10);
    } catch (const std::exception &) {
      pos = 0;
    }
    if (word.empty() || pos != word.size())
      throw DirectiveError(directive, directive + " '" + text + "' is not of the form " + form,
                           "write " + form);
    if (n < 0 || (n == 0 && !allow_zero))
      throw DirectiveError(directive,
                           directive + " '" + text + "' has an extent that is " +
                               (allow_zero ? "negative" : "not positive"),
                           allow_zero ? "every extent must be 0 or more"
                                      : "every extent must be 1 or more");
    dims.push_back(n);
    if (x == std::string::npos)
      break;
    start = x + 1;
  }
  if (dims.size() == 1)
    dims.assign(static_cast<size_t>(rank), dims.front());
  if (dims.size() != static_cast<size_t>(rank))
    throw DirectiveError(directive,
                         directive + " '" + text + "' has " + std::to_string(dims.size()) +
                             " extents, expected " + std::to_string(rank),
                         "write " + form);
  return dims;
}

std::string format_dims(const std::vector<std::int64_t> &dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? "x" : "") + std::to_string(dims[i]);
  return out;
}

int checked_int(std::int64_t value, const std::string &what, const std::string &directive) {
  if (value < 0 || value > INT_MAX) {
    const std::string message =
        what + " (" + std::to_string(value) + ") exceeds 2^31-1, the largest MPI count";
    const std::string fix =
        "make the dataset smaller in that dimension or use a larger element size";
    if (!directive.empty())
      throw DirectiveError(directive, message, fix);
    throw Error(message, fix);
  }
  return static_cast<int>(value);
}

} // namespace pio::patterns
