// Random strided access pattern: thesis §3.4.1, Fig. 3.7 (results §4.2.4, Fig. 4.3).
//
// "Random strided is categorized by having each process access some non-zero number of bytes
// in an ordered round robin fashion. Since each process is responsible for accessing a non-zero
// number of bytes, the stripe size for each cycle varies. This results in a random stride
// distance for each iteration of accesses."
//
// Geometry (P ranks, H = HeaderOffset, bounds [lo, hi] of one StripBounds entry):
//   a work unit is one cycle. In cycle u rank r accesses len(u, r) bytes, drawn uniformly from
//   [lo, hi] (lo >= 1) by a generator seeded with Seed, in the order u = 0, 1, ..., r = 0..P-1:
//   each draw is the next 64-bit output x of splitmix64 and len = lo + x mod (hi - lo + 1).
//   The strips of a cycle follow each other in rank order (round robin) and each cycle's stripe
//   follows the previous one:
//     offset(u, r) = H + sum_{u' < u} sum_{r'} len(u', r') + sum_{r' < r} len(u, r').
// Every rank computes every rank's strips from the seed in init_module (before timing), so the
// layout agrees without communication. Reseed never (the default): every repetition of a test
// reuses that layout, so repetitions are comparable. Reseed per_repetition: repetition k > 0
// draws its own layout from seed_k, the k-th output of splitmix64 seeded with Seed (the thesis
// drew new sizes each run, §4.2.4); repetition 0 keeps Seed. The reported buffer size is the mean
// strip size over all ranks and cycles (§4.2.4: "the points ... are plotted ... at the average
// buffer size"). The temporal modes (§3.4.2) and the I/O itself are the engine's
// (pio/patterns/pattern_module.hpp).

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/strided_geometry.hpp"

namespace pio::patterns {
namespace {

/// splitmix64: a small generator whose output is the same on every platform and library
/// (std::uniform_int_distribution is not), so all ranks and all builds agree on the layout.
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  /// The next 64 random bits.
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// A value in [lo, hi] (the modulo bias is below 2^-40 for strips under 16 MiB).
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

private:
  std::uint64_t state_;
};

/// Inclusive bounds of the random strip size of one test ("1K-2K").
struct StripBounds {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  std::string text;
};

StripBounds parse_bounds(const std::string &text) {
  const std::string hint = "write StripBounds as size pairs lo-hi with 1 <= lo <= hi, e.g. "
                           "StripBounds 1K-2K 2K-4K 4K-8K (thesis §4.2.4)";
  const auto dash = text.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == text.size())
    throw DirectiveError("StripBounds", "StripBounds entry '" + text + "' is not of the form lo-hi",
                         hint);
  StripBounds b;
  b.text = text;
  try {
    b.lo = parse_size(text.substr(0, dash));
    b.hi = parse_size(text.substr(dash + 1));
  } catch (const Error &e) {
    throw DirectiveError("StripBounds", "StripBounds entry '" + text + "': " + e.what(), hint);
  }
  if (b.lo <= 0)
    throw DirectiveError("StripBounds", "StripBounds entry '" + text + "' allows empty strips",
                         "every process accesses a non-zero number of bytes per cycle; " + hint);
  if (b.hi < b.lo)
    throw DirectiveError(
        "StripBounds", "StripBounds entry '" + text + "' has its upper bound below its lower bound",
        hint);
  return b;
}

/// Every rank's strip in every cycle, from the seed.
class RandomLayout {
public:
  RandomLayout(std::uint64_t seed, const StripBounds &b, int ranks, std::int64_t cycles,
               std::int64_t header)
      : ranks_(ranks), offsets_(static_cast<size_t>(ranks * cycles)),
        lengths_(static_cast<size_t>(ranks * cycles)) {
    SplitMix64 rng(seed);
    std::int64_t offset = header;
    for (std::int64_t u = 0; u < cycles; ++u)
      for (int r = 0; r < ranks; ++r) {
        const size_t k = index(r, u);
        lengths_[k] = rng.between(b.lo, b.hi);
        offsets_[k] = offset;
        offset += lengths_[k];
        total_ += lengths_[k];
      }
  }
  /// Rank r's strip in cycle u.
  Extent strip(int r, std::int64_t u) const {
    return {offsets_[index(r, u)], lengths_[index(r, u)]};
  }
  /// Mean strip size over all ranks and cycles.
  double mean() const { return static_cast<double>(total_) / static_cast<double>(lengths_.size()); }

private:
  size_t index(int r, std::int64_t u) const { return static_cast<size_t>(u * ranks_ + r); }
  int ranks_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int64_t> lengths_;
  std::int64_t total_ = 0;
};

/// Thesis Fig. 3.7: one random strip per rank per cycle, round robin.
class RandomStridedGeometry : public ContiguousUnitGeometry {
public:
  explicit RandomStridedGeometry(RandomLayout layout) : layout_(std::move(layout)) {}
  Extent extent(int rank, std::int64_t unit) const override { return layout_.strip(rank, unit); }
  /// Mean strip size over all ranks and cycles.
  double mean() const { return layout_.mean(); }

private:
  RandomLayout layout_;
};

/// The seed of repetition `rep`: Seed itself for the first, then the rep-th output of a
/// splitmix64 seeded with Seed (not Seed + rep: neighbouring seeds would share draws).
std::uint64_t repetition_seed(std::uint64_t seed, int rep) {
  SplitMix64 seeds(seed);
  std::uint64_t s = seed;
  for (int k = 0; k < rep; ++k)
    s = seeds.next();
  return s;
}

/// Strips one geometry holds (16 bytes each on every rank): at most 2^26 (1 GiB).
constexpr std::int64_t kMaxStrips = std::int64_t{1} << 26;

class RandomStrided : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const auto seed = static_cast<std::uint64_t>(ctx.settings.integer("Seed"));
    const bool reseed = ctx.settings.text("Reseed") == "per_repetition";
    if (bytes_per_rank() > 0) // the bytes of a unit are drawn after its count is known
      throw DirectiveError("BytesPerRank",
                           "random strided draws its strips' sizes for a given number of work "
                           "units: BytesPerRank cannot decide that number",
                           "set WorkUnits instead (the results record the bytes each test moved)");
    const std::int64_t units = work_units(0), header = header_offset();
    const int ranks = ctx.size;
    if (checked_mul(units, ranks, "WorkUnits", "WorkUnits x processes strips") > kMaxStrips)
      throw DirectiveError("WorkUnits",
                           "WorkUnits " + std::to_string(units) + " x " + std::to_string(ranks) +
                               " processes makes more than 2^26 random strips, whose layout "
                               "every rank would hold in memory",
                           "use at most " + std::to_string(kMaxStrips / ranks) + " work units");
    std::vector<PatternTest> tests;
    for (const auto &text : ctx.settings.texts("StripBounds")) {
      const StripBounds bounds = parse_bounds(text);
      // The largest file any draw can make: every strip at the upper bound.
      checked_file_end(header, units,
                       checked_mul(bounds.hi, ranks, "StripBounds", "one cycle of largest strips"),
                       "StripBounds");
      auto layout =
          std::make_shared<RandomStridedGeometry>(RandomLayout(seed, bounds, ranks, units, header));
      const double mean = layout->mean();
      PatternTest t{pattern_spec(text, static_cast<std::int64_t>(mean + 0.5)), layout};
      if (reseed)
        t.repetition_geometry = [=](int rep) -> std::shared_ptr<const Geometry> {
          return std::make_shared<RandomStridedGeometry>(
              RandomLayout(repetition_seed(seed, rep), bounds, ranks, units, header));
        };
      t.spec.params["reseed"] = reseed ? "per_repetition" : "never";
      std::ostringstream m;
      m.precision(10);
      m << mean;
      t.spec.params["strip_min"] = std::to_string(bounds.lo);
      t.spec.params["strip_max"] = std::to_string(bounds.hi);
      t.spec.params["mean_strip"] = m.str();
      t.spec.params["seed"] = std::to_string(static_cast<std::int64_t>(seed));
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("8", "cycles per test (one cycle per work unit)");
  d.push_back({"StripBounds", DirectiveType::Texts, "1K-2K 2K-4K 4K-8K 8K-16K 16K-32K 32K-64K",
               "random strip size bounds lo-hi (inclusive, lo >= 1); one test per pair"});
  d.push_back({"Seed", DirectiveType::Integer, "1",
               "seed of the strip sizes; all ranks derive the same layout from it"});
  d.push_back({"Reseed",
               DirectiveType::Text,
               "never",
               "never: every repetition uses the layout drawn from Seed; per_repetition: each "
               "repetition draws new strip sizes (the thesis, §4.2.4)",
               {"never", "per_repetition"}});
  return d;
}

ModuleInfo info() {
  ModuleInfo m("random_strided", make_module<RandomStrided>);
  m.title = "Random Strided";
  m.summary =
      "each rank accesses a random non-zero number of bytes per cycle, round robin in rank order";
  m.reference = "thesis §3.4.1, Fig. 3.7; §4.2.4, Fig. 4.3";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
