// Test-only module for ReadShift (docs/reference/timing.md, "The page cache"): `Mode write` has
// each rank write one block of bytes naming its world rank at its module rank's place (its part of
// a shared file, or its own file per process); `Mode read`, in a FilesFrom block, reads its module
// rank's place and fails unless the bytes name world rank (this rank + ExpectFrom) mod size: the
// rank it should have read from.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pio/io/interface.hpp"
#include "pio/pio.hpp"

namespace {

constexpr int kBlock = 4096;

class Neighbour : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    read_ = ctx.settings.text("Mode") == "read";
    expect_from_ = static_cast<int>(ctx.settings.integer("ExpectFrom"));
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
    pio::TestSpec t;
    t.label = ctx.settings.flag("FilePerProcess") ? "fpp" : "shared";
    t.buffer_size = kBlock;
    t.file =
        ctx.settings.flag("FilePerProcess") ? pio::FileUse::FilePerProcess : pio::FileUse::Shared;
    t.phases[0].work_units = 1;
    t.phases[0].access = read_ ? pio::PhaseAccess::Read : pio::PhaseAccess::Write;
    return {t};
  }
  void describe_test(pio::TestContext &t) override {
    offset_ = t.spec().file == pio::FileUse::Shared ? static_cast<MPI_Offset>(t.rank) * kBlock : 0;
    io_ = t.io;
  }
  std::int64_t work_unit(pio::UnitContext &) override {
    std::vector<unsigned char> buf(kBlock, static_cast<unsigned char>(read_ ? 0 : world_rank_ + 1));
    pio::io::Transfer t; // one block at its explicit offset, through the block's Interface
    t.direction = read_ ? pio::io::Direction::Read : pio::io::Direction::Write;
    t.buffer = buf.data();
    t.count = kBlock;
    t.offset = offset_;
    const pio::io::Extent at{offset_, kBlock};
    t.extents = &at;
    t.extent_count = 1;
    io_->run(t);
    if (!read_)
      return kBlock;
    const int expected = (world_rank_ + expect_from_) % world_size_;
    for (unsigned char b : buf)
      if (b != expected + 1)
        throw pio::Error("world rank " + std::to_string(world_rank_) + " read the bytes of rank " +
                         std::to_string(static_cast<int>(b) - 1) + ", expected rank " +
                         std::to_string(expected));
    return kBlock;
  }

private:
  bool read_ = false;
  int expect_from_ = 0, world_rank_ = 0, world_size_ = 1;
  MPI_Offset offset_ = 0;
  pio::io::Interface *io_ = nullptr;
};

pio::ModuleInfo neighbour_info() {
  pio::ModuleInfo m("test_neighbour", pio::make_module<Neighbour>);
  m.summary = "test only: writes each rank's world rank, reads and checks whose bytes it got";
  m.reference = "tests/harness/run/test_flags.cpp";
  m.directives = {
      {"Mode", pio::DirectiveType::Text, "write", "write or read", {"write", "read"}},
      pio::DirectiveSpec{"ExpectFrom", pio::DirectiveType::Integer, "0",
                         "read: the bytes must be those of world rank (this + ExpectFrom) mod size"}
          .at_least(0),
      {"FilePerProcess", pio::DirectiveType::Flag, "off", "a file per process"}};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{neighbour_info()})
