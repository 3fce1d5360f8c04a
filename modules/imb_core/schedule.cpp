#include "schedule.hpp"

#include <algorithm>
#include <sstream>

#include "pio/directive.hpp"

namespace imb {

std::vector<std::int64_t> log_lengths(int min_log, int max_log) {
  std::vector<std::int64_t> out{0};
  for (int k = min_log; k <= max_log; ++k)
    out.push_back(std::int64_t{1} << k);
  return out;
}

std::vector<std::int64_t> parse_lengths(const std::string &text, const std::string &where) {
  std::vector<std::int64_t> out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      std::int64_t v = -1;
      try {
        v = pio::parse_size(w);
      } catch (const pio::Error &) {
      }
      if (v < 0)
        throw pio::Error(where + ":" + std::to_string(n) + ": '" + w + "' is not a message length",
                         "write one non-negative byte count a line (IMB -msglen)");
      out.push_back(v);
    }
  }
  if (out.empty())
    throw pio::Error(where + " holds no message lengths", "write one byte count a line");
  return out;
}

std::vector<std::int64_t> kernel_lengths(const std::vector<std::int64_t> &lengths,
                                         std::int64_t unit) {
  std::vector<std::int64_t> out;
  for (std::int64_t x : lengths) {
    const std::int64_t rounded = (x + unit - 1) / unit * unit;
    if (std::find(out.begin(), out.end(), rounded) == out.end())
      out.push_back(rounded);
  }
  return out;
}

std::int64_t sample_count(std::int64_t x, std::int64_t msgs_per_sample, std::int64_t overall_vol) {
  if (x == 0)
    return msgs_per_sample;
  return std::min(msgs_per_sample, std::max<std::int64_t>(1, overall_vol / x));
}

std::int64_t probe_count(std::int64_t n_sample, double t_one) {
  std::int64_t reps = 1;
  if (t_one < 1.0 / 1000)
    reps = 1000;
  else if (t_one < 1.0)
    reps = static_cast<std::int64_t>(1.0 / t_one + 0.5);
  return std::min(n_sample, reps);
}

std::int64_t time_limited_count(std::int64_t n_sample, double t_op, double secs,
                                std::int64_t previous) {
  std::int64_t n = n_sample;
  if (t_op > 1e-8) {
    const double fit = 1.0 + secs / t_op;
    if (fit < 2147483647.0)
      n = std::min(n, static_cast<std::int64_t>(fit));
  }
  if (previous > 0)
    n = std::min(n, previous);
  return std::max<std::int64_t>(1, n);
}

std::int64_t warmup_count(std::int64_t n_sample) {
  const std::int64_t n = n_sample / 10;
  return n < 10 ? std::min<std::int64_t>(10, n_sample) : n;
}

std::vector<int> process_counts(int world, int np_min, bool single_transfer) {
  if (single_transfer)
    return world >= 2 ? std::vector<int>{2} : std::vector<int>{};
  std::vector<int> out;
  int np = std::max(1, std::min(world, np_min));
  while (true) {
    out.push_back(np);
    if (np >= world)
      break;
    np = std::min(2 * np, world);
  }
  return out;
}

int map_position(int world_rank, int px, int py) {
  if (px <= 1 || py <= 1)
    return world_rank;
  const int prod = px * py;
  const int key = (py * world_rank) % (prod - 1);
  return key == 0 ? world_rank : key;
}

pio::RankGroups rank_groups(int world, int np, bool multi, int px, int py) {
  pio::RankGroups g;
  g.color.assign(static_cast<size_t>(world), -1);
  const int groups = multi ? world / np : 1;
  for (int w = 0; w < world; ++w) {
    const int color = map_position(w, px, py) / np;
    if (color < groups)
      g.color[static_cast<size_t>(w)] = color;
  }
  return g;
}

std::vector<std::vector<int>> group_ranks(const pio::RankGroups &groups, int px, int py) {
  const int world = static_cast<int>(groups.color.size());
  const int count =
      world == 0 ? 0 : *std::max_element(groups.color.begin(), groups.color.end()) + 1;
  std::vector<std::vector<int>> members(static_cast<size_t>(std::max(0, count)));
  std::vector<std::pair<int, int>> by_position; // (position, world rank)
  for (int w = 0; w < world; ++w)
    by_position.emplace_back(map_position(w, px, py), w);
  std::sort(by_position.begin(), by_position.end());
  for (const auto &[position, w] : by_position)
    if (groups.color[static_cast<size_t>(w)] >= 0)
      members[static_cast<size_t>(groups.color[static_cast<size_t>(w)])].push_back(w);
  return members;
}

std::string group_members(const pio::RankGroups &groups, int px, int py) {
  const std::vector<std::vector<int>> members = group_ranks(groups, px, py);
  std::string out;
  for (size_t g = 0; g < members.size(); ++g) {
    out += g > 0 ? ";" : "";
    for (size_t k = 0; k < members[g].size(); ++k)
      out += (k > 0 ? " " : "") + std::to_string(members[g][k]);
  }
  return out;
}

pio::ImbTable methodology_table(const pio::RankGroups &groups, bool multi, int outflag, int px,
                                int py, const std::string &mbytes_unit) {
  pio::ImbTable t;
  t.rows = !multi         ? pio::GroupRows::Auto
           : outflag == 1 ? pio::GroupRows::Each
                          : pio::GroupRows::Worst;
  t.unit = mbytes_unit == "MB" ? pio::MbytesUnit::MB : pio::MbytesUnit::MiB;
  const std::vector<std::vector<int>> members = group_ranks(groups, px, py);
  if (members.size() > 1)
    t.group_ranks = members;
  return t;
}

CacheLayout cache_layout(std::int64_t length, std::int64_t cache_size, std::int64_t line,
                         std::int64_t n_sample) {
  CacheLayout c;
  if (cache_size <= 0)
    return c;
  c.stride = ((length + line - 1) / line + 1) * line;
  c.slots =
      std::max<std::int64_t>(1, std::min(n_sample, (2 * cache_size + c.stride - 1) / c.stride));
  return c;
}

} // namespace imb
