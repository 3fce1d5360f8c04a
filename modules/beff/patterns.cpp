#include "patterns.hpp"

#include <algorithm>
#include <functional>
#include <random>

namespace pio::b_eff {

std::int64_t Pattern::messages() const {
  std::int64_t m = 0;
  for (const auto &rank_steps : steps)
    for (const Step &s : rank_steps)
      m += s.to != kNone ? 1 : 0;
  return m;
}

int standard_ring_size(int k, int n) {
  int m = n;
  switch (k) {
  case 1:
    m = 2;
    break;
  case 2:
    m = 4;
    break;
  case 3:
    m = 8;
    break;
  case 4:
    m = std::max(16, n / 4);
    break;
  case 5:
    m = std::max(32, n / 2);
    break;
  default:
    m = n;
    break;
  }
  return std::max(1, std::min(m, n));
}

std::vector<int> ring_sizes(int k, int n) {
  if (n <= 0)
    return {};
  if (k == 2 && n <= 7) // §4: "If the number of processes is less or equal 7 then all
    return {n};         // processes form one ring."
  const int m = standard_ring_size(k, n);
  // floor(n/m + 0.4) in integers: floor((10n + 4m) / 10m).
  const int rings = std::max(1, std::min((10 * n + 4 * m) / (10 * m), n / 2));
  const int low = n / rings, high = low + 1;
  const int high_count = n - low * rings, low_count = rings - high_count;
  std::vector<int> sizes;
  const bool high_first = (low % 2) != 0 && high_count > 0;
  const int first = high_first ? high : low, second = high_first ? low : high;
  const int first_count = high_first ? high_count : low_count;
  const int second_count = high_first ? low_count : high_count;
  sizes.insert(sizes.end(), static_cast<size_t>(first_count), first);
  sizes.insert(sizes.end(), static_cast<size_t>(second_count), second);
  return sizes;
}

namespace {

/// "3*2+1*3" from ring sizes 2 2 2 3.
std::string ring_layout(const std::vector<int> &sizes) {
  std::string out;
  for (size_t i = 0; i < sizes.size();) {
    size_t j = i;
    while (j < sizes.size() && sizes[j] == sizes[i])
      ++j;
    out += (out.empty() ? "" : "+") + std::to_string(j - i) + "*" + std::to_string(sizes[i]);
    i = j;
  }
  return out;
}

/// Pairs (a[i], b[i]): a sends the ping, b the pong.
Pattern pairs(const std::string &name, int participants,
              const std::vector<std::pair<int, int>> &p) {
  Pattern out;
  out.name = name;
  out.family = Family::Extra;
  out.participants = participants;
  out.steps.assign(static_cast<size_t>(participants), std::vector<Step>(2));
  for (const auto &[a, b] : p) {
    out.steps[static_cast<size_t>(a)][0] = Step{b, kNone}; // ping: a -> b
    out.steps[static_cast<size_t>(b)][0] = Step{kNone, a};
    out.steps[static_cast<size_t>(b)][1] = Step{a, kNone}; // pong: b -> a
    out.steps[static_cast<size_t>(a)][1] = Step{kNone, b};
  }
  out.layout = std::to_string(p.size()) + " pairs";
  return out;
}

} // namespace

Pattern ring_pattern(const std::string &name, Family family, const std::vector<int> &order,
                     const std::vector<int> &sizes) {
  Pattern p;
  p.name = name;
  p.family = family;
  p.participants = static_cast<int>(order.size());
  p.layout = ring_layout(sizes);
  p.steps.assign(order.size(), {});
  size_t base = 0;
  for (int s : sizes) {
    const auto size = static_cast<size_t>(s);
    for (size_t j = 0; j < size; ++j) {
      const int me = order[base + j];
      const int left = order[base + (j + size - 1) % size];
      const int right = order[base + (j + 1) % size];
      // §4: send to the left neighbour, receive from the right; then the reverse. In a ring of
      // two both neighbours are the partner: one message, as b_eff 3.6 sends and counts it
      // (b_eff.c removes the pong whose destination equals the ping's).
      if (left == right)
        p.steps[static_cast<size_t>(me)] = {Step{left, right}};
      else
        p.steps[static_cast<size_t>(me)] = {Step{left, right}, Step{right, left}};
    }
    base += size;
  }
  return p;
}

Pattern ring(int k, int n) {
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    order[static_cast<size_t>(i)] = i;
  return ring_pattern("ring-" + std::to_string(k), Family::Ring, order, ring_sizes(k, n));
}

std::vector<int> random_order(int n, std::uint64_t seed) {
  std::vector<int> order(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i)
    order[static_cast<size_t>(i)] = i;
  std::mt19937_64 gen(seed); // the engine is fully specified by the standard: reproducible
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[static_cast<size_t>(gen() % i)]);
  return order;
}

Pattern random_ring(int k, int n, std::uint64_t seed) {
  const std::uint64_t pattern_seed = seed * 1000003ULL + static_cast<std::uint64_t>(k);
  Pattern p = ring_pattern("random-" + std::to_string(k), Family::Random,
                           random_order(n, pattern_seed), {n});
  p.layout = "1*" + std::to_string(n) + " random";
  return p;
}

Pattern worst_cycle(int n) {
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    order.push_back(i % 2 == 0 ? i / 2 : n - 1 - i / 2);
  Pattern p = ring_pattern("worst-cycle", Family::Extra, order, {n});
  p.layout = "1*" + std::to_string(n) + " 0,n-1,1,n-2,...";
  return p;
}

Pattern best_bisection(int n) {
  const int m = n / 2 * 2;
  std::vector<std::pair<int, int>> p;
  for (int a = 0; a < m; a += 2)
    p.emplace_back(a, a + 1);
  return pairs("bisection-best", m, p);
}

Pattern worst_bisection(int n) {
  const int m = n / 2 * 2;
  std::vector<std::pair<int, int>> p;
  for (int a = 0; a < m / 2; ++a)
    p.emplace_back(a, m - 1 - a);
  return pairs("bisection-worst", m, p);
}

std::vector<int> balanced_dims(int n, int ndims) {
  // Every non-increasing factorisation; keep the one with the smallest spread (largest - smallest).
  std::vector<int> best, cur;
  std::function<void(int, int, int)> search = [&](int rest, int dims_left, int cap) {
    if (dims_left == 1) {
      if (rest > cap)
        return;
      cur.push_back(rest);
      if (best.empty() || cur.front() - cur.back() < best.front() - best.back())
        best = cur;
      cur.pop_back();
      return;
    }
    for (int d = std::min(rest, cap); d >= 1; --d)
      if (rest % d == 0) {
        cur.push_back(d);
        search(rest / d, dims_left - 1, d);
        cur.pop_back();
      }
  };
  search(std::max(n, 1), ndims, std::max(n, 1));
  return best;
}

int cartesian_participants(int n, int ndims) {
  for (int c = n; c > 1; --c)
    if (balanced_dims(c, ndims).back() > 1 || c < 4 || (c < 8 && c % 2 == 0))
      return c;
  return std::max(n, 1);
}

Pattern cartesian(int n, int ndims, int direction) {
  const int c = cartesian_participants(n, ndims);
  const std::vector<int> dims = balanced_dims(c, ndims);
  Pattern p;
  p.family = Family::Extra;
  p.participants = c;
  p.name =
      "cart" + std::to_string(ndims) + "d-" +
      (direction < 0 ? std::string("all") : std::string(1, static_cast<char>('x' + direction)));
  for (size_t d = 0; d < dims.size(); ++d)
    p.layout += (d ? "x" : "") + std::to_string(dims[d]);
  p.steps.assign(static_cast<size_t>(c), {});
  for (int r = 0; r < c; ++r) {
    // Row-major coordinates, as MPI_Cart_create without reordering.
    std::vector<int> coord(dims.size());
    int rest = r;
    for (size_t d = dims.size(); d-- > 0;) {
      coord[d] = rest % dims[d];
      rest /= dims[d];
    }
    for (int d = 0; d < ndims; ++d) {
      if ((direction >= 0 && d != direction) || dims[static_cast<size_t>(d)] < 2)
        continue;
      auto shifted = [&](int by) {
        std::vector<int> c2 = coord;
        const int e = dims[static_cast<size_t>(d)];
        c2[static_cast<size_t>(d)] = (c2[static_cast<size_t>(d)] + by + e) % e;
        int rank = 0;
        for (size_t k = 0; k < dims.size(); ++k)
          rank = rank * dims[k] + c2[k];
        return rank;
      };
      const int up = shifted(+1), down = shifted(-1);
      auto &s = p.steps[static_cast<size_t>(r)];
      s.push_back(Step{up, down}); // ping towards +1
      s.push_back(Step{down, up}); // pong back
    }
  }
  return p;
}

Pattern ping_pong() {
  Pattern p = pairs("ping-pong", 2, {{0, 1}});
  p.sendrecv_only = true;
  p.layout = "ranks 0,1";
  return p;
}

std::vector<Pattern> all_patterns(int n, const PatternChoice &choice) {
  std::vector<Pattern> out;
  if (choice.rings)
    for (int k = 1; k <= 6; ++k)
      out.push_back(ring(k, n));
  if (choice.random)
    for (int k = 1; k <= choice.random_count; ++k)
      out.push_back(random_ring(k, n, choice.seed));
  if (choice.extra) {
    out.push_back(worst_cycle(n));
    if (n >= 2) {
      out.push_back(best_bisection(n));
      out.push_back(worst_bisection(n));
    }
    for (int ndims = 2; ndims <= 3; ++ndims) {
      const std::vector<int> dims = balanced_dims(cartesian_participants(n, ndims), ndims);
      int directions = 0;
      for (int d = 0; d < ndims; ++d)
        if (dims[static_cast<size_t>(d)] >= 2) {
          out.push_back(cartesian(n, ndims, d));
          ++directions;
        }
      if (directions > 0)
        out.push_back(cartesian(n, ndims, -1));
    }
    if (n >= 2)
      out.push_back(ping_pong());
  }
  return out;
}

} // namespace pio::b_eff
