// Overflow-checked offsets of the pattern engine (docs/reference/patterns.md, "Offsets and 2^63").
#include "pio/patterns/checked_offsets.hpp"

#include "pio/directive.hpp"
#include "pio/error.hpp"

namespace pio::patterns {

namespace {

const char *const kFix = "make the sizes, counts or HeaderOffset smaller: every byte of the "
                         "file must lie below offset 2^63-1 (8 EiB)";

[[noreturn]] void overflow(const std::string &directive, const std::string &what) {
  throw DirectiveError(directive, what + " exceeds 2^63-1, the largest 64-bit offset or count",
                       kFix);
}

} // namespace

std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string &directive,
                         const std::string &what) {
  std::int64_t sum = 0;
  if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &sum))
    overflow(directive, what + " (" + std::to_string(a) + " + " + std::to_string(b) + ")");
  return sum;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string &directive,
                         const std::string &what) {
  std::int64_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product))
    overflow(directive, what + " (" + std::to_string(a) + " x " + std::to_string(b) + ")");
  return product;
}

std::int64_t checked_file_end(std::int64_t header, std::int64_t units, std::int64_t unit_span,
                              const std::string &span_directive) {
  const std::string file = std::to_string(units) + " work unit" + (units == 1 ? "" : "s") + " of " +
                           std::to_string(unit_span) + " bytes";
  std::int64_t body = 0, end = 0;
  if (units < 0 || unit_span < 0 || __builtin_mul_overflow(units, unit_span, &body))
    overflow(span_directive, "the file of " + file);
  if (header < 0 || __builtin_add_overflow(header, body, &end))
    overflow("HeaderOffset",
             "HeaderOffset " + std::to_string(header) + " plus the file of " + file);
  return end;
}

} // namespace pio::patterns
