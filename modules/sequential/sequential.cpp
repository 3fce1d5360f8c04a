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
// The temporal modes (§3.4.2) and the I/O itself are the engine's
// (pio/patterns/pattern_module.hpp).

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
    const std::int64_t strip = (unit + rank * (interleave_ % strips_) % strips_) % strips_;
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
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const std::int64_t file_size = ctx.settings.size("FileSize");
    const std::int64_t interleave = ctx.settings.integer("Interleave");
    const bool per_process = writes(mode());
    std::vector<PatternTest> tests;
    for (const std::int64_t size : ctx.settings.sizes("BufferSizes")) {
      std::int64_t strips = work_units(size);
      if (file_size > 0 && bytes_per_rank() > 0)
        throw DirectiveError("BytesPerRank",
                             "FileSize and BytesPerRank both decide the number of requests",
                             "keep one: FileSize (the file's bytes) or BytesPerRank (each rank's)");
      if (file_size > 0) {
        if (file_size % size != 0)
          throw DirectiveError("FileSize",
                               "FileSize " + format_size(file_size) +
                                   " is not a multiple of buffer size " + format_size(size),
                               "the file is read or written in whole requests of the buffer size; "
                               "choose a FileSize divisible by every entry of BufferSizes");
        strips = file_size / size;
      }
      checked_file_end(header_offset(), strips, size, file_size > 0 ? "FileSize" : "WorkUnits");
      // Rank r starts at strip (r * Interleave) mod N; the product must not wrap.
      checked_mul(ctx.size - 1, interleave % strips, "Interleave",
                  "the last rank's start (processes - 1) x Interleave mod strips");
      PatternTest t{pattern_spec(format_size(size), size),
                    std::make_shared<SequentialGeometry>(header_offset(), size, strips, interleave,
                                                         !per_process)};
      t.spec.phases.at(0).work_units = strips;
      t.spec.file = per_process ? FileUse::FilePerProcess : FileUse::Shared;
      t.spec.params["file_size"] = std::to_string(strips * size);
      t.spec.params["interleave"] = std::to_string(interleave);
      t.spec.params["file_use"] = to_string(t.spec.file);
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives(
      "8", "requests per rank per test when FileSize is 0 (one request per work unit)");
  d.push_back(buffer_sizes_directive("1K 4K 16K 64K 256K 1M"));
  d.push_back({"FileSize", DirectiveType::Size, "0",
               "bytes each rank sweeps; WorkUnits = FileSize / buffer size (0 = WorkUnits "
               "strips of the buffer size)"});
  d.push_back(DirectiveSpec{"Interleave", DirectiveType::Integer, "0",
                            "time shift: rank r starts at strip r*Interleave, wrapping around "
                            "(0 = off)"}
                  .at_least(0));
  return d;
}

ModuleInfo info() {
  ModuleInfo m("sequential", make_module<Sequential>);
  m.title = "Sequential";
  m.summary = "every rank sweeps the whole file in fixed-size requests; reads share one file, "
              "writes use one file per process";
  m.reference = "thesis §3.4.1, Fig. 3.8; §4.2.5, Figs. 4.4-4.5";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
