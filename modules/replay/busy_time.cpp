#include "busy_time.hpp"

#include <algorithm>
#include <bitset>
#include <cmath>

namespace pio::replay {

void BusyTime::coarsen() {
  // Tick 2i and 2i+1 become tick i.
  std::vector<std::uint64_t> half((words_.size() + 1) / 2, 0);
  for (std::size_t w = 0; w < words_.size(); ++w)
    for (int b = 0; b < 64; ++b)
      if (words_[w] >> b & 1U) {
        const std::uint64_t bit = (w * 64 + static_cast<std::uint64_t>(b)) / 2;
        half[bit / 64] |= std::uint64_t(1) << (bit % 64);
      }
  words_.swap(half);
  tick_ *= 2;
}

void BusyTime::add(double start, double end) {
  if (!(end > start) || start < 0)
    return;
  // Ticks [first, last]; the slack keeps a time printed in decimals (0.0019) on its tick.
  const auto first_tick = [&] {
    return static_cast<std::int64_t>(std::floor(start / tick_ + 1e-6));
  };
  const auto last_tick = [&] {
    return static_cast<std::int64_t>(std::ceil(end / tick_ - 1e-6)) - 1;
  };
  auto first = first_tick(), last = last_tick();
  while (last >= max_bits_) {
    coarsen();
    first = first_tick();
    last = last_tick();
  }
  last = std::max(last, first);
  const auto need = static_cast<std::size_t>(last / 64 + 1);
  if (words_.size() < need)
    words_.resize(need, 0);
  for (std::int64_t t = first; t <= last;) {
    const auto w = static_cast<std::size_t>(t / 64);
    const int b = static_cast<int>(t % 64);
    if (b == 0 && last - t >= 63) {
      words_[w] = ~std::uint64_t(0);
      t += 64;
    } else {
      words_[w] |= std::uint64_t(1) << b;
      ++t;
    }
  }
}

double BusyTime::seconds() const {
  std::int64_t ticks = 0;
  for (const auto w : words_)
    ticks += static_cast<std::int64_t>(std::bitset<64>(w).count());
  return static_cast<double>(ticks) * tick_;
}

} // namespace pio::replay
