// Segmented access pattern: thesis §3.4.1, Fig. 3.9 (results §4.2.6, Fig. 4.6).
//
// "The segmented access pattern divides the entire file into logical segment ranges for as many
// processes as there are performing concurrent access. ... In this example, each process' region
// of access is determined by its rank. Ordering based upon rank is one example of segmented
// access, but a segmented access pattern may dole out regions of access by any means it
// chooses."
//
// Geometry (P ranks, rank r, work unit u of U, H = HeaderOffset, B = buffer size):
//   segment length  S = U * B; the file holds segments 0..P-1 after the header
//   segment of rank r: s(r) = r (Assignment rank), P-1-r (reverse) or (r+1) mod P (rotate)
//   extent of unit u: H + s(r)*S + u*B, length B (each unit the next B bytes of the segment)
// The temporal modes (§3.4.2) and the I/O itself are the engine's (common/pattern_module).

#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "common/pattern_module.hpp"
#include "common/strided_geometry.hpp"
#include "pio/error.hpp"
#include "pio/module.hpp"

namespace pio::patterns {
namespace {

/// How segments are doled out to ranks.
enum class Assignment { Rank, Reverse, Rotate };

Assignment parse_assignment(std::string text) {
  for (auto &c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "rank")
    return Assignment::Rank;
  if (text == "reverse")
    return Assignment::Reverse;
  if (text == "rotate")
    return Assignment::Rotate;
  throw Error("unknown segment Assignment '" + text + "'", "use rank, reverse or rotate");
}

/// Thesis Fig. 3.9: one contiguous segment per process.
class SegmentedGeometry : public ContiguousUnitGeometry {
public:
  SegmentedGeometry(Assignment a, int ranks, std::int64_t header, std::int64_t buffer,
                    std::int64_t units)
      : assignment_(a), ranks_(ranks), header_(header), buffer_(buffer), units_(units) {}

  Extent extent(int rank, std::int64_t unit) const override {
    return {header_ + segment_of(rank) * units_ * buffer_ + unit * buffer_, buffer_};
  }

private:
  std::int64_t segment_of(int rank) const {
    switch (assignment_) {
    case Assignment::Rank:
      return rank;
    case Assignment::Reverse:
      return ranks_ - 1 - rank;
    case Assignment::Rotate:
      return (rank + 1) % ranks_;
    }
    return rank;
  }
  Assignment assignment_;
  int ranks_;
  std::int64_t header_, buffer_, units_;
};

class Segmented : public PatternModule {
protected:
  std::vector<TestSpec> make_tests(const ModuleContext &ctx) override {
    basics_ = read_strided_basics(ctx.settings);
    const std::string assignment = ctx.settings.text("Assignment");
    assignment_ = parse_assignment(assignment);
    std::vector<TestSpec> tests;
    for (const std::int64_t size : basics_.buffer_sizes) {
      TestSpec t = strided_spec(format_size(size), size, basics_.header_offset, basics_.work_units);
      t.params["assignment"] = assignment;
      t.params["segment"] = std::to_string(size * basics_.work_units);
      tests.push_back(std::move(t));
    }
    return tests;
  }

  std::unique_ptr<Geometry> make_geometry(const TestContext &test) override {
    return std::make_unique<SegmentedGeometry>(
        assignment_, test.size, basics_.header_offset,
        basics_.buffer_sizes.at(static_cast<size_t>(test.test_index)), basics_.work_units);
  }

private:
  StridedBasics basics_;
  Assignment assignment_ = Assignment::Rank;
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives();
  for (auto &c : strided_common_directives("1K 4K 16K 64K 256K 1M", "4"))
    d.push_back(std::move(c));
  d.push_back({"Assignment",
               DirectiveType::Text,
               "rank",
               "which segment each rank gets: rank (segment r), reverse (segment P-1-r), "
               "rotate (segment (r+1) mod P)",
               {"rank", "reverse", "rotate"}});
  return d;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"segmented", "Segmented",
     "the file split into one contiguous segment per process, WorkUnits x buffer size long",
     "thesis §3.4.1, Fig. 3.9; §4.2.6, Fig. 4.6", true, pio::patterns::directives(),
     [] { return std::make_unique<pio::patterns::Segmented>(); }}})
