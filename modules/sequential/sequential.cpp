// Sequential access pattern: thesis §3.4.1, Fig. 3.8 (results §4.2.5, Figs. 4.4 and 4.5).
//
// "Each process opens the file and issues requests that access a fixed size region with
// linearly increasing offsets for each successive request ... The requests start at the
// beginning of the file, and continue until each process reaches the end of file. Optionally,
// a user may specify an offset that will cause each process to essentially time-shift its
// access of the same regions of the file. ... each process writes to a different file with a
// sequential access pattern."
//
// Geometry (P ranks, rank r, H = HeaderOffset, B = buffer size):
//   the file is N strips of B bytes after the header, N = FileSize / B (or WorkUnits when
//   FileSize is 0); every rank makes N requests, one per work unit, covering the whole file.
//   Interleave k time-shifts rank r to start at strip r*k (wrapping around):
//     extent of unit u = H + ((u + r*k) mod N) * B, length B.
// File use (thesis: shared sequential writes would be a race): the read-only modes (read,
// re-read) share one file; every mode that writes (write, read-modify-write, re-write) gives
// each process its own file, "<TestFile>.<rank>", holding that rank's data.
// The temporal modes (§3.4.2) and the I/O itself are the engine's (common/pattern_module).

#include <memory>
#include <string>
#include <vector>

#include "common/pattern_module.hpp"
#include "common/strided_geometry.hpp"
#include "pio/error.hpp"
#include "pio/module.hpp"

namespace pio::patterns {
namespace {

/// Thesis Fig. 3.8: every rank sweeps the whole file in fixed-size requests.
class SequentialGeometry : public ContiguousUnitGeometry {
public:
  SequentialGeometry(std::int64_t header, std::int64_t buffer, std::int64_t strips,
                     std::int64_t interleave, bool shared)
      : header_(header), buffer_(buffer), strips_(strips), interleave_(interleave),
        shared_(shared) {}

  /// Every rank reads the whole shared file: its data is rank 0's (rank 0 covers every strip).
  /// In a per-process file a rank's data is its own.
  int data_rank(int rank, std::int64_t) const override { return shared_ ? 0 : rank; }

  Extent extent(int rank, std::int64_t unit) const override {
    const std::int64_t strip = (unit + (rank * interleave_) % strips_) % strips_;
    return {header_ + strip * buffer_, buffer_};
  }

private:
  std::int64_t header_, buffer_, strips_, interleave_;
  bool shared_;
};

/// True for temporal modes that write to the file.
bool writes(TemporalMode m) {
  return m == TemporalMode::Write || m == TemporalMode::ReWrite ||
         m == TemporalMode::ReadModifyWrite;
}

class Sequential : public PatternModule {
protected:
  std::vector<TestSpec> make_tests(const ModuleContext &ctx) override {
    basics_ = read_strided_basics(ctx.settings);
    const std::int64_t file_size = ctx.settings.size("FileSize");
    interleave_ = ctx.settings.integer("Interleave");
    if (interleave_ < 0)
      throw Error("Interleave must not be negative, got " + std::to_string(interleave_),
                  "set Interleave to 0 (all ranks start at the file start) or k > 0 (rank r "
                  "starts at strip r*k)");
    strips_.clear();
    std::vector<TestSpec> tests;
    for (const std::int64_t size : basics_.buffer_sizes) {
      std::int64_t strips = basics_.work_units;
      if (file_size > 0) {
        if (file_size % size != 0)
          throw Error("FileSize " + format_size(file_size) + " is not a multiple of buffer size " +
                          format_size(size),
                      "the file is read or written in whole requests of the buffer size; "
                      "choose a FileSize divisible by every entry of BufferSizes");
        strips = file_size / size;
      }
      TestSpec t = strided_spec(format_size(size), size, basics_.header_offset, strips);
      t.file = writes(mode()) ? FileUse::FilePerProcess : FileUse::Shared;
      t.params["file_size"] = std::to_string(strips * size);
      t.params["interleave"] = std::to_string(interleave_);
      t.params["file_use"] = writes(mode()) ? "file-per-process" : "shared";
      tests.push_back(std::move(t));
      strips_.push_back(strips);
    }
    return tests;
  }

  std::unique_ptr<Geometry> make_geometry(const TestContext &test) override {
    const auto k = static_cast<size_t>(test.test_index);
    return std::make_unique<SequentialGeometry>(basics_.header_offset, basics_.buffer_sizes.at(k),
                                                strips_.at(k), interleave_,
                                                !writes(mode()));
  }

private:
  StridedBasics basics_;
  std::vector<std::int64_t> strips_;
  std::int64_t interleave_ = 0;
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives();
  for (auto &c : strided_common_directives("1K 4K 16K 64K 256K 1M", "8"))
    d.push_back(std::move(c));
  d.push_back({"FileSize", DirectiveType::Size, "0",
               "bytes each rank sweeps; WorkUnits = FileSize / buffer size (0 = WorkUnits "
               "strips of the buffer size)"});
  d.push_back({"Interleave", DirectiveType::Integer, "0",
               "time shift: rank r starts at strip r*Interleave, wrapping around (0 = off)"});
  return d;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"sequential", "Sequential",
     "every rank sweeps the whole file in fixed-size requests; reads share one file, writes use "
     "one file per process",
     "thesis §3.4.1, Fig. 3.8; §4.2.5, Figs. 4.4-4.5", true, pio::patterns::directives(),
     [] { return std::make_unique<pio::patterns::Sequential>(); }}})
