// Random offsets: IO500's ior-rnd4K-easy-read (hpc/io500 src/phase_ior_rnd4k_easy_read.c:
// IOR -z -z -t 4096 -b 4096 on ior-easy's files), as a pio-bench pattern.
//
// IOR with randomOffset > 1 (src/ior.c, WriteOrRead) draws, per transfer, a block index
// uniformly from the file's blocks and accesses blockSize bytes there: offsets aligned to the
// block, repeats possible, no order. No pattern of the pio-bench thesis does that (random
// strided, §3.4.1 Fig. 3.7, draws random lengths at ordered offsets), hence this geometry.
//
// Geometry (P ranks, rank r, unit u, B = buffer size, N = FileSize / B blocks, H = HeaderOffset):
//   block(r, u) = splitmix64 output number u of the stream seeded with Seed + r*2^32, mod N
//   extent of unit u: H + block(r, u) * B, length B.
// Each rank has a file of its own ("<TestFile>.<rank>", IOR -F as IO500's ior-easy), so a
// rank's repeated blocks hold its own data. The read modes prepare the blocks they read,
// untimed (the engine's rule for read tests), so the file holds data where it is read. Under
// FilesFrom the file is an earlier block's (IO500 reads ior-easy's files): N is drawn over the
// file as found, min(FileSize, its size - H) / B blocks, as IOR sizes its draw by the file
// (randomOffset > 1: fileSizeForRead); the harness leaves the units uncapped, since they are
// not the earlier block's. The temporal modes (§3.4.2) and the I/O itself are the engine's
// (pio/patterns/pattern_module.hpp).

#include <algorithm>
#include <cstdint>
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

/// Output `index` of splitmix64 seeded with `seed` (the generator is a counter through a
/// finaliser, so any output is computed directly and every rank and build agrees).
std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// One block of B bytes per unit at a random block-aligned offset of the rank's file.
class RandomOffsetsGeometry : public ContiguousUnitGeometry {
public:
  RandomOffsetsGeometry(std::uint64_t seed, std::int64_t header, std::int64_t buffer,
                        std::int64_t blocks)
      : seed_(seed), header_(header), buffer_(buffer), blocks_(blocks) {}

  Extent extent(int rank, std::int64_t unit) const override {
    const std::uint64_t stream = seed_ + (static_cast<std::uint64_t>(rank) << 32);
    const auto block =
        static_cast<std::int64_t>(splitmix64_at(stream, static_cast<std::uint64_t>(unit)) %
                                  static_cast<std::uint64_t>(blocks_));
    return {header_ + block * buffer_, buffer_};
  }

private:
  std::uint64_t seed_;
  std::int64_t header_, buffer_, blocks_;
};

class RandomOffsets : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const std::int64_t file_size = ctx.settings.size("FileSize");
    const auto seed = static_cast<std::uint64_t>(ctx.settings.integer("Seed"));
    std::vector<PatternTest> tests;
    for (const std::int64_t size : ctx.settings.sizes("BufferSizes")) {
      if (file_size < size || file_size % size != 0)
        throw DirectiveError("FileSize",
                             "FileSize " + format_size(file_size) +
                                 " is not a positive multiple of buffer size " + format_size(size),
                             "offsets are drawn from the file's whole blocks of the buffer size; "
                             "choose a FileSize divisible by every entry of BufferSizes");
      const std::int64_t blocks = file_size / size;
      checked_file_end(header_offset(), blocks, size, "FileSize");
      PatternTest t{pattern_spec(format_size(size), size),
                    std::make_shared<RandomOffsetsGeometry>(seed, header_offset(), size, blocks)};
      t.inherited_geometry = [seed, header = header_offset(), size,
                              file_size](std::int64_t file_bytes) {
        const std::int64_t usable = std::min(file_size, file_bytes - header);
        if (usable < size)
          throw Error("the file the FilesFrom block left holds " + format_size(file_bytes) +
                          ", not one block of " + format_size(size) + " after HeaderOffset " +
                          format_size(header),
                      "make the block named by FilesFrom write at least HeaderOffset plus one "
                      "buffer size on every rank");
        return std::make_shared<RandomOffsetsGeometry>(seed, header, size, usable / size);
      };
      t.spec.file = FileUse::FilePerProcess;
      t.spec.params["file_size"] = std::to_string(file_size);
      t.spec.params["seed"] = std::to_string(seed);
      t.spec.params["file_use"] = to_string(t.spec.file);
      tests.push_back(std::move(t));
    }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("64", "blocks each rank accesses per test (one per work unit)");
  d.push_back(buffer_sizes_directive("4K"));
  d.push_back(DirectiveSpec{"FileSize", DirectiveType::Size, "1M",
                            "bytes of each rank's file the offsets are drawn from (a multiple of "
                            "every buffer size; under FilesFrom at most the file's size)"}
                  .at_least(1));
  d.push_back({"Seed", DirectiveType::Integer, "1",
               "seed of the offsets: rank r draws from splitmix64 seeded with Seed + r*2^32"});
  return d;
}

ModuleInfo info() {
  ModuleInfo m("random_offsets", make_module<RandomOffsets>);
  m.title = "Random Offsets";
  m.summary = "one block per unit at a uniformly random block-aligned offset of each rank's own "
              "file (IO500's ior-rnd4K, IOR -z -z)";
  m.reference = "IO500 ior-rnd4K-easy-read (IOR randomOffset > 1)";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
