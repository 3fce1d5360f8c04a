// COMMTEST's "cache invalidated" way: the last-level cache size and the sweep that evicts it.
#include "cache.hpp"

#include <cstring>
#include <fstream>

namespace commtest {

namespace {
std::string read_line(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}
} // namespace

std::int64_t parse_cache_size(const std::string &text) {
  size_t pos = 0;
  long long n = 0;
  try {
    n = std::stoll(text, &pos, 10);
  } catch (const std::exception &) {
    return 0;
  }
  if (n <= 0)
    return 0;
  const std::string suffix = text.substr(pos);
  if (suffix.empty())
    return n;
  if (suffix == "K")
    return n << 10;
  if (suffix == "M")
    return n << 20;
  if (suffix == "G")
    return n << 30;
  return 0;
}

CacheSize last_level_cache(const std::string &cpu_dir, bool detect, std::int64_t fallback) {
  if (detect) {
    int best_level = 0;
    std::int64_t best = 0;
    for (int i = 0; i < 16; ++i) {
      const std::string dir = cpu_dir + "/cache/index" + std::to_string(i);
      const std::string level = read_line(dir + "/level");
      if (level.empty())
        continue; // indices need not be dense
      if (read_line(dir + "/type") == "Instruction")
        continue;
      const std::int64_t size = parse_cache_size(read_line(dir + "/size"));
      const int lv = std::atoi(level.c_str());
      if (size > 0 && lv >= best_level) {
        best_level = lv;
        best = size;
      }
    }
    if (best > 0)
      return {best, cpu_dir + "/cache"};
  }
  return {fallback, "CacheSize directive"};
}

CacheSweep::CacheSweep(std::int64_t bytes) : buffer_(static_cast<size_t>(bytes), 0) {}

std::uint64_t CacheSweep::sweep() {
  ++value_;
  std::memset(buffer_.data(), value_, buffer_.size());
  std::uint64_t sum = 0;
  for (size_t i = 0; i < buffer_.size(); i += 64)
    sum += static_cast<volatile std::uint8_t &>(buffer_[i]);
  return sum;
}

} // namespace commtest
