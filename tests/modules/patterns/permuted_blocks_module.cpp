// Test-only modules (test_extent_order.cpp), written as an author out of tree would.
//
// test_permuted_blocks: each rank's work unit is Blocks blocks of BlockSize bytes in its own
// region of the file, (u * P + r) * Blocks * BlockSize on, listed by extents() in the Order
// given: ascending, reversed, shuffled (block k of the stream at region block (k * 7 + 3) mod
// Blocks, a permutation when 7 and Blocks are coprime) or overlapping (blocks 2i and 2i + 1 both
// at region block i). Stream piece k belongs at the k-th extent's offset whatever the order; the
// engine must put it there or refuse the geometry. MemoryGap > 0 makes memory a datatype (the
// blocks MemoryGap bytes apart), whose order the engine cannot change.
//
// test_misplaced_blocks: the same pattern through an I/O interface that misplaces consistently,
// as a backend mapping memory onto its selection in file order would (an HDF5 hyperslab union
// without staging): a transfer of several extents goes to them in file order, its memory in the
// order given. What it writes it reads back the same way, so only a check of each block at its
// own offset can tell.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <pio/io/forwarding_interface.hpp>
#include <pio/patterns/strided_geometry.hpp>

#include <pio/patterns/pattern_module.hpp>
#include <pio/pio.hpp>

namespace {

class Permuted : public pio::patterns::Geometry {
public:
  Permuted(int ranks, std::int64_t blocks, std::int64_t block, std::string order, std::int64_t gap)
      : ranks_(ranks), blocks_(blocks), block_(block), order_(std::move(order)), gap_(gap) {}
  std::vector<pio::patterns::Extent> extents(int rank, std::int64_t unit) const override {
    const std::int64_t region = (unit * ranks_ + rank) * blocks_ * block_;
    std::vector<pio::patterns::Extent> e;
    for (std::int64_t k = 0; k < blocks_; ++k)
      e.push_back({region + slot(k) * block_, block_});
    return e;
  }
  pio::patterns::MemoryLayout memory(int rank, std::int64_t unit) const override {
    if (gap_ == 0)
      return Geometry::memory(rank, unit);
    return {blocks_ * (block_ + gap_),
            pio::patterns::strided_vector(blocks_, block_, block_ + gap_)};
  }

private:
  std::int64_t slot(std::int64_t k) const {
    if (order_ == "reversed")
      return blocks_ - 1 - k;
    if (order_ == "shuffled")
      return (k * 7 + 3) % blocks_;
    if (order_ == "overlapping")
      return k / 2;
    return k;
  }
  int ranks_;
  std::int64_t blocks_, block_;
  std::string order_;
  std::int64_t gap_;
};

class PermutedBlocks : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    const std::int64_t blocks = ctx.settings.integer("Blocks");
    const std::int64_t block = ctx.settings.size("BlockSize");
    return {{pattern_spec(pio::format_size(blocks * block), blocks * block),
             std::make_shared<Permuted>(ctx.size, blocks, block, ctx.settings.text("Order"),
                                        ctx.settings.size("MemoryGap"))}};
  }
};

/// The harness's interface, with a transfer of several extents sent to them in file order.
class MisplacingIo final : public pio::io::ForwardingInterface {
public:
  std::int64_t start(const pio::io::Transfer &t) override {
    if (t.extent_count < 2)
      return inner->start(t);
    std::vector<pio::io::Extent> sorted(t.extents, t.extents + t.extent_count);
    std::sort(sorted.begin(), sorted.end(), [](const pio::io::Extent &a, const pio::io::Extent &b) {
      return a.offset < b.offset;
    });
    pio::io::Transfer m = t;
    m.extents = sorted.data();
    return inner->start(m);
  }
};

class MisplacedBlocks : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    return inner_.init_module(ctx);
  }
  void describe_test(pio::TestContext &t) override {
    io_.inner = t.io;
    t.io = &io_;
    inner_.describe_test(t);
  }
  void before_work_unit(pio::UnitContext &u) override { inner_.before_work_unit(u); }
  std::int64_t work_unit(pio::UnitContext &u) override { return inner_.work_unit(u); }
  void after_work_unit(pio::UnitContext &u) override { inner_.after_work_unit(u); }
  void cleanup_test(pio::TestContext &t) override { inner_.cleanup_test(t); }

private:
  PermutedBlocks inner_;
  MisplacingIo io_;
};

std::vector<pio::DirectiveSpec> directives() {
  auto d = pio::patterns::pattern_directives("2");
  d.push_back(
      pio::DirectiveSpec{"Blocks", pio::DirectiveType::Integer, "30", "blocks per rank per unit"}
          .at_least(1));
  d.push_back(
      pio::DirectiveSpec{"BlockSize", pio::DirectiveType::Size, "64", "bytes per block"}.at_least(
          1));
  d.push_back({"Order",
               pio::DirectiveType::Text,
               "shuffled",
               "the order extents() lists a unit's blocks in",
               {"ascending", "reversed", "shuffled", "overlapping"}});
  d.push_back(pio::DirectiveSpec{"MemoryGap", pio::DirectiveType::Size, "0",
                                 "bytes between blocks in memory (0: contiguous memory)"}
                  .at_least(0));
  return d;
}

pio::ModuleInfo info(const char *name, pio::CreateModule create, const char *summary) {
  pio::ModuleInfo m(name, create);
  m.summary = summary;
  m.reference = "tests/modules/patterns";
  m.directives = directives();
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    info("test_permuted_blocks", pio::make_module<PermutedBlocks>,
         "test only: each unit's blocks listed by extents() out of file order"),
    info("test_misplaced_blocks", pio::make_module<MisplacedBlocks>,
         "test only: test_permuted_blocks through an interface that misplaces consistently")})
