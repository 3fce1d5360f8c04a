#include "rank_map.hpp"

#include "pio/error.hpp"

namespace pio::replay {

const char *to_string(RankMapping m) {
  switch (m) {
  case RankMapping::Exact:
    return "exact";
  case RankMapping::Modulo:
    return "modulo";
  case RankMapping::Scaled:
    return "scaled";
  }
  return "?";
}

RankMapping parse_rank_mapping(const std::string &text) {
  for (auto m : {RankMapping::Exact, RankMapping::Modulo, RankMapping::Scaled})
    if (text == to_string(m))
      return m;
  throw Error("unknown TraceRanks '" + text + "'", "use exact, modulo or scaled");
}

std::int64_t run_rank(RankMapping m, std::int64_t t, std::int64_t trace_ranks, int run_ranks) {
  const auto p = static_cast<std::int64_t>(run_ranks);
  switch (m) {
  case RankMapping::Exact:
    return t < p ? t : -1;
  case RankMapping::Modulo:
    return t % p;
  case RankMapping::Scaled:
    // t * P fits: t < T and both are process counts.
    return trace_ranks > 0 ? t * p / trace_ranks : t % p;
  }
  return -1;
}

} // namespace pio::replay
