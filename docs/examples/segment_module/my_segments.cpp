// A complete pio-bench module, written against the installed headers only: each rank writes
// its own contiguous segment of the shared file, BlockSize bytes per work unit, and checks
// what it wrote when Verify is on. Copy this file to start a module of your own.
//
//   file: | rank 0: unit 0, unit 1, ... | rank 1: unit 0, unit 1, ... | ...
#include <vector>

#include <pio/pio.hpp>

namespace {

class MySegments : public pio::Module {
public:
  // 1. init module: read directives, declare the tests (untimed).
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    units_ = ctx.settings.integer("WorkUnits");
    if (units_ < 1)
      throw pio::Error("WorkUnits must be at least 1", "set WorkUnits 1 or more");
    std::vector<pio::TestSpec> tests;
    for (std::int64_t block : ctx.settings.sizes("BlockSizes")) {
      pio::TestSpec t;
      t.label = pio::format_size(block);
      t.buffer_size = block;
      t.phases[0].work_units = units_;
      tests.push_back(t);
    }
    return tests;
  }

  // 2. describe test: buffers for the already-open file (untimed).
  void describe_test(pio::TestContext &test) override {
    test_ = &test;
    block_ = test.spec->buffer_size;
    buffer_.assign(static_cast<size_t>(block_), 0);
  }

  // 3. before work unit: compute the offset and stamp the data (untimed).
  void before_work_unit(pio::UnitContext &unit) override {
    offset_ = (test_->rank * units_ + unit.unit) * block_;
    pio::stamp_fill(buffer_.data(), block_, test_->rank, offset_);
  }

  // 4. work unit: the I/O only, plus the flush if SyncWrites asks (timed).
  std::int64_t work_unit(pio::UnitContext &unit) override {
    if (unit.collective)
      pio::mpi_check(MPI_File_write_at_all(test_->file, offset_, buffer_.data(),
                                           static_cast<int>(block_), MPI_BYTE, MPI_STATUS_IGNORE),
                     "MPI_File_write_at_all");
    else
      pio::mpi_check(MPI_File_write_at(test_->file, offset_, buffer_.data(),
                                       static_cast<int>(block_), MPI_BYTE, MPI_STATUS_IGNORE),
                     "MPI_File_write_at");
    if (unit.flush)
      pio::mpi_check(MPI_File_sync(test_->file), "MPI_File_sync");
    return block_;
  }

  // 5. after work unit: verification (untimed).
  void after_work_unit(pio::UnitContext &) override {
    if (!test_->module->verify)
      return;
    std::vector<std::uint8_t> back(buffer_.size());
    pio::mpi_check(MPI_File_read_at(test_->file, offset_, back.data(), static_cast<int>(block_),
                                    MPI_BYTE, MPI_STATUS_IGNORE),
                   "MPI_File_read_at");
    const auto bad = pio::stamp_mismatch(back.data(), block_, test_->rank, offset_);
    if (bad >= 0)
      throw pio::Error("verification failed at file offset " + std::to_string(offset_ + bad),
                       "the file system returned other data than was written");
  }

  // 6. cleanup test: free buffers; the harness has closed the file.
  void cleanup_test(pio::TestContext &) override { buffer_.clear(); }

  // 7. cleanup module: nothing left; the harness deletes the test file it created.

private:
  std::int64_t units_ = 0, block_ = 0, offset_ = 0;
  pio::TestContext *test_ = nullptr;
  std::vector<std::uint8_t> buffer_;
};

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"my_segments",
     "My Segments",
     "each rank writes its own contiguous segment",
     "docs/writing-a-module.md",
     true,
     {{"BlockSizes", pio::DirectiveType::Sizes, "64K", "bytes per rank per work unit"},
      {"WorkUnits", pio::DirectiveType::Integer, "4", "work units per test"}},
     [] { return std::make_unique<MySegments>(); }}})
