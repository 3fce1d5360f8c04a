#pragma once
/// b_eff's message lengths (b_eff paper §3.1, §4): 13 fixed lengths 1 B ... 4 kB doubling and 8
/// variable lengths 4 kB * a^1 ... 4 kB * a^8 = L_max, with L_max = memory per process / 128.

#include <cstdint>
#include <vector>

namespace pio::b_eff {

/// Number of message lengths (§4: "The message length L has the following 21 values").
constexpr int kLengths = 21;
/// Number of fixed lengths, 1 B ... 4 kB (§3.1: "13 fixed sizes").
constexpr int kFixedLengths = 13;
/// The largest fixed length, 4 kB.
constexpr std::int64_t kFixedMax = 4096;
/// The 32-bit-int cap on L_max (§4: "Lmax = min(128 MB, (memory per processor)/128)").
constexpr std::int64_t kLmaxCap32 = 128LL * 1024 * 1024;

/// L_max for a memory per process in bytes (§4): memory / 128, capped at 128 MB when the MPI
/// count type (int) has fewer than 64 bits; never below 4 kB.
std::int64_t lmax_rule(std::int64_t memory_per_process, bool int_is_narrow = sizeof(int) < 8);

/// The 21 lengths for a given L_max >= 4 kB (§4): 2^0 ... 2^12, then 4 kB * a^k rounded to the
/// nearest byte for k = 1..8, a = (L_max / 4 kB)^(1/8), the last exactly L_max.
std::vector<std::int64_t> message_lengths(std::int64_t lmax);

} // namespace pio::b_eff
