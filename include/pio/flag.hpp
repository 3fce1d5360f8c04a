#pragma once
/// Why a figure cannot be vouched for: the typed flags every test and repetition of the results
/// carries (docs/reference/results.md, "Flags"), each with its one spelling beside it.

#include <optional>
#include <string>
#include <vector>

#include "pio/enum_words.hpp"

namespace pio {

/// What makes a figure one the run cannot vouch for.
enum class Flag {
  PageCache,       ///< its reads were mostly served from the page cache
  WriteCache,      ///< its writes were mostly left in the page cache, not yet on storage
  MemoryBandwidth, ///< its bandwidth per node exceeds the node's memory copy rate
  Oversubscribed,  ///< more ranks on a node than the node's usable cores
  WideSpread,      ///< its repetitions vary too much to trust the median
  Bimodal,         ///< its repetitions fall into two separate groups
  WarmUp,          ///< its first repetition (or first message length) is a warm-up outlier
  Swapping,        ///< a node swapped during it
  HeavyLoad,       ///< other work competed for a node's CPUs during it
};

/// Every flag, in the order the docs list them.
inline const std::vector<Flag> &all_flags() {
  static const std::vector<Flag> all = {
      Flag::PageCache,      Flag::WriteCache, Flag::MemoryBandwidth,
      Flag::Oversubscribed, Flag::WideSpread, Flag::Bimodal,
      Flag::WarmUp,         Flag::Swapping,   Flag::HeavyLoad};
  return all;
}

/// The one spelling of a flag: the results' JSON and CSV, the console, `--allow FLAG`.
inline const char *to_string(Flag f) {
  switch (f) {
  case Flag::PageCache:
    return "page_cache";
  case Flag::WriteCache:
    return "write_cache";
  case Flag::MemoryBandwidth:
    return "memory_bandwidth";
  case Flag::Oversubscribed:
    return "oversubscribed";
  case Flag::WideSpread:
    return "wide_spread";
  case Flag::Bimodal:
    return "bimodal";
  case Flag::WarmUp:
    return "warm_up";
  case Flag::Swapping:
    return "swapping";
  case Flag::HeavyLoad:
    return "heavy_load";
  }
  return "?";
}

/// The flag a word names (any case), if it names one.
inline std::optional<Flag> flag_named(const std::string &word) {
  return enum_named(word, all_flags());
}

/// One flag raised on a test or a repetition, with its reason in one line.
struct FlagRecord {
  Flag flag = Flag::WideSpread;
  std::string reason; ///< one line: what was measured against what
};

} // namespace pio
