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
// FilePerProcess on: each segment is a file of its own ("<TestFile>.<rank>", IOR -F, IO500's
// ior-easy): s(r) = 0 in every rank's file, Assignment has no say.
// The temporal modes (§3.4.2) and the I/O itself are the engine's
// (pio/patterns/pattern_module.hpp).

#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/strided_geometry.hpp"

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
  throw DirectiveError("Assignment", "unknown segment Assignment '" + text + "'",
                       "use rank, reverse or rotate");
}

/// Thesis Fig. 3.9: one contiguous segment per process.
class SegmentedGeometry : public ContiguousUnitGeometry {
public:
  SegmentedGeometry(Assignment a, int ranks, std::int64_t header, std::int64_t buffer,
                    std::int64_t units, bool per_process)
      : assignment_(a), ranks_(ranks), header_(header), buffer_(buffer), units_(units),
        per_process_(per_process) {}

  Extent extent(int rank, std::int64_t unit) const override {
    return {header_ + segment_of(rank) * units_ * buffer_ + unit * buffer_, buffer_};
  }

private:
  std::int64_t segment_of(int rank) const {
    if (per_process_)
      return 0;
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
  bool per_process_;
};

class Segmented : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const std::string assignment = ctx.settings.text("Assignment");
    const Assignment a = parse_assignment(assignment);
    const bool per_process = ctx.settings.flag("FilePerProcess");
    std::vector<PatternTest> tests;
    for (const std::int64_t size : ctx.settings.sizes("BufferSizes")) {
      // P segments of WorkUnits x buffer size bytes after the header.
      checked_file_end(header_offset(), per_process ? 1 : ctx.size,
                       checked_mul(work_units(size), size, "BufferSizes", "one segment"),
                       "BufferSizes");
      PatternTest t{pattern_spec(format_size(size), size),
                    std::make_shared<SegmentedGeometry>(a, ctx.size, header_offset(), size,
                                                        work_units(size), per_process)};
      if (per_process) {
        t.spec.file = FileUse::FilePerProcess;
        t.spec.params["file_use"] = to_string(t.spec.file);
      }
      t.spec.params["assignment"] = assignment;
      t.spec.params["segment"] = std::to_string(size * work_units(size));
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("4");
  d.push_back(buffer_sizes_directive("1K 4K 16K 64K 256K 1M"));
  d.push_back({"Assignment",
               DirectiveType::Text,
               "rank",
               "which segment each rank gets: rank (segment r), reverse (segment P-1-r), "
               "rotate (segment (r+1) mod P)",
               {"rank", "reverse", "rotate"}});
  d.push_back({"FilePerProcess", DirectiveType::Flag, "off",
               "each rank's segment in a file of its own, <TestFile>.<rank> (IOR -F)"});
  return d;
}

ModuleInfo info() {
  ModuleInfo m("segmented", make_module<Segmented>);
  m.title = "Segmented";
  m.summary =
      "the file split into one contiguous segment per process, WorkUnits x buffer size long";
  m.reference = "thesis §3.4.1, Fig. 3.9; §4.2.6, Fig. 4.6";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
