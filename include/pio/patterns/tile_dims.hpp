#pragma once
/// Dimension lists written "XxY" or "XxYxZ" (or one number for a square or cube), shared by the
/// tiled (tile and tile-grid sizes) and FLASH-IO (cells per block) modules.

#include <cstdint>
#include <string>
#include <vector>

namespace pio::patterns {

/// Parses "64x32" or "8x8x8" into `rank` positive extents (non-negative with allow_zero), x
/// first; a single number "8" means the same extent in every dimension. Throws
/// pio::DirectiveError naming `directive` and the text.
std::vector<std::int64_t> parse_dims(const std::string &text, int rank,
                                     const std::string &directive, bool allow_zero = false);

/// Formats extents as "64x32" / "8x8x8".
std::string format_dims(const std::vector<std::int64_t> &dims);

/// Throws pio::Error unless `value` fits an MPI int count ("<what> ... exceeds 2^31-1"); a
/// pio::DirectiveError naming `directive` when one is given (a check in make_tests).
int checked_int(std::int64_t value, const std::string &what, const std::string &directive = {});

} // namespace pio::patterns
