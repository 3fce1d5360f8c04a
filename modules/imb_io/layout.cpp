#include "layout.hpp"

#include <algorithm>

#include "buffers.hpp"

namespace imb::io {

std::vector<Benchmark> benchmarks() {
  Benchmark open_close;
  open_close.name = "Open_Close";
  open_close.section = "§4.2.4.10";
  open_close.cls = Class::Other;
  open_close.action = Action::None;
  std::vector<Benchmark> out{open_close};
  struct Flavour {
    Class cls;
    const char *prefix;
    Positioning pos;
    const char *suffix;
    const char *section;
  };
  const Flavour flavours[] = {
      {Class::Single, "S_", Positioning::Indv, "_indv", "§4.2.4.1"},
      {Class::Single, "S_", Positioning::Expl, "_expl", "§4.2.4.2"},
      {Class::Parallel, "P_", Positioning::Indv, "_indv", "§4.2.4.3"},
      {Class::Parallel, "P_", Positioning::Expl, "_expl", "§4.2.4.4"},
      {Class::Parallel, "P_", Positioning::Shared, "_shared", "§4.2.4.5"},
      {Class::Parallel, "P_", Positioning::Priv, "_priv", "§4.2.4.6"},
      {Class::Collective, "C_", Positioning::Indv, "_indv", "§4.2.4.7"},
      {Class::Collective, "C_", Positioning::Expl, "_expl", "§4.2.4.8"},
      {Class::Collective, "C_", Positioning::Shared, "_shared", "§4.2.4.9"},
  };
  for (bool nb : {false, true})
    for (const auto &f : flavours)
      for (Action a : {Action::Write, Action::Read}) {
        const std::string action =
            std::string(nb ? "I" : "") + (a == Action::Write ? "Write" : "Read");
        Benchmark b;
        b.name = f.prefix + action + f.suffix;
        b.section = nb ? std::string(f.section) + ", §4.2.5" : std::string(f.section);
        b.cls = f.cls;
        b.action = a;
        b.pos = f.pos;
        b.nonblocking = nb;
        out.push_back(b);
      }
  return out;
}

Portion rank_portion(int rank, int np, std::int64_t x, std::int64_t unit) {
  if (x <= 0)
    return {};
  const std::int64_t units = (x + unit - 1) / unit, base = units / np, extra = units % np;
  Portion p;
  p.first = (rank < extra ? rank * (base + 1) : rank * base + extra) * unit;
  const std::int64_t length = (rank < extra ? base + 1 : base) * unit;
  p.length = std::max<std::int64_t>(0, std::min(p.first + length, x) - p.first);
  if (p.length == 0)
    p.first = std::min(p.first, x);
  return p;
}

std::int64_t file_offset(Positioning pos, const Portion &p, std::int64_t x, std::int64_t j) {
  return pos == Positioning::Priv ? j * p.length : j * x + p.first;
}

char data_byte(int rank, std::int64_t k) { return static_cast<char>(byte_of(rank, k)); }

char file_byte(int np, std::int64_t x, std::int64_t o) {
  const std::int64_t within = o % x;
  for (int r = 0; r < np; ++r) {
    const Portion p = rank_portion(r, np, x);
    if (within >= p.first && within < p.first + p.length)
      return data_byte(r, within - p.first);
  }
  return 0;
}

} // namespace imb::io
