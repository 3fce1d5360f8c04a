#include <cstring>

#include "kernel.hpp"
#include "pio/error.hpp"

namespace imb {

void mpi(int rc, const char *call) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw pio::Error(std::string(call) + " failed: " + std::string(text, static_cast<size_t>(len)),
                     "check the MPI installation and the process count");
  }
}

std::string expect_bytes(const char *got, int sender, std::int64_t from, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k)
    if (static_cast<std::uint8_t>(got[k]) != byte_of(sender, from + k))
      return "byte " + std::to_string(k) + " is " +
             std::to_string(static_cast<std::uint8_t>(got[k])) + ", rank " +
             std::to_string(sender) + " sent " + std::to_string(byte_of(sender, from + k));
  return {};
}

std::string expect_sums(const char *got, int np, std::int64_t first, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) {
    float want = 0, have = 0;
    for (int r = 0; r < np; ++r)
      want += float_of(r, first + k);
    std::memcpy(&have, got + k * 4, sizeof have);
    if (have != want)
      return "element " + std::to_string(first + k) + " is " + std::to_string(have) +
             ", the sum is " + std::to_string(want);
  }
  return {};
}

Share scatter_share(std::int64_t l, int np, int i) {
  const std::int64_t r = l / np, s = l % np;
  if (i < s)
    return {i * (r + 1), r + 1};
  return {i * r + s, r};
}

} // namespace imb
