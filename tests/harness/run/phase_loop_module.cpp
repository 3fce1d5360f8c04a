// Test-only module for the measurement controls (docs/reference/timing.md): one test of two phases
// on a shared file, a write phase that stamps each unit's bytes (rank, unit) and a read phase that
// reads them back and checks every byte, so a read beyond what a stonewalled write wrote fails.
// Every work unit makes a collective call on the test's communicator, and a chosen rank can
// fail at a chosen unit after that call, for the error rule of TimingScope phase.
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "pio/pio.hpp"

namespace {

constexpr std::int64_t kBlock = 64; // bytes per rank per unit

/// The byte at position k of rank r's block of unit u.
unsigned char stamp(int rank, std::int64_t unit, std::int64_t k) {
  return static_cast<unsigned char>(1 + (rank * 31 + unit * 7 + k) % 251);
}

class PhaseLoop : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    units_ = ctx.settings.integer("WorkUnits");
    write_delay_ = ctx.settings.real("WriteDelayMs") / 1000.0;
    fail_in_ = ctx.settings.text("FailIn");
    fail_rank_ = static_cast<int>(ctx.settings.integer("FailRank"));
    fail_unit_ = ctx.settings.integer("FailUnit");
    pio::TestSpec t;
    t.label = "write+read";
    t.buffer_size = kBlock;
    t.phases = {pio::Phase{"write", units_}, pio::Phase{"read", units_}};
    return {t};
  }
  void describe_test(pio::TestContext &t) override {
    io_ = t.io;
    comm_ = t.comm;
    rank_ = t.rank;
    size_ = t.size;
    buf_.assign(static_cast<size_t>(kBlock), 0);
  }
  void before_work_unit(pio::UnitContext &u) override { maybe_fail("before_work_unit", u); }
  std::int64_t work_unit(pio::UnitContext &u) override {
    const MPI_Offset off = (u.unit * size_ + rank_) * kBlock;
    const pio::io::Extent at{off, kBlock};
    pio::io::Transfer t; // MPI_File_write_at / read_at under mpiio
    t.buffer = buf_.data();
    t.count = static_cast<int>(kBlock);
    t.offset = off;
    t.extents = &at;
    t.extent_count = 1;
    if (u.phase == 0) {
      for (std::int64_t k = 0; k < kBlock; ++k)
        buf_[static_cast<size_t>(k)] = stamp(rank_, u.unit, k);
      if (write_delay_ > 0)
        std::this_thread::sleep_for(std::chrono::duration<double>(write_delay_));
      io_->run(t);
    } else {
      std::fill(buf_.begin(), buf_.end(), 0);
      t.direction = pio::io::Direction::Read;
      io_->run(t);
    }
    // A collective call inside every unit: ranks out of step would wait here for good.
    int one = 1, all = 0;
    pio::mpi_check(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, comm_), "MPI_Allreduce");
    if (u.phase == 1)
      for (std::int64_t k = 0; k < kBlock; ++k)
        if (buf_[static_cast<size_t>(k)] != stamp(rank_, u.unit, k))
          throw pio::Error("read phase, unit " + std::to_string(u.unit) + ", rank " +
                               std::to_string(rank_) + ": byte " + std::to_string(k) +
                               " is not what the write phase wrote",
                           "a read must not go past the units its write wrote");
    maybe_fail("work_unit", u);
    return kBlock;
  }
  void after_work_unit(pio::UnitContext &u) override { maybe_fail("after_work_unit", u); }

private:
  void maybe_fail(const std::string &method, const pio::UnitContext &u) {
    if (method == fail_in_ && rank_ == fail_rank_ && u.phase == 0 && u.unit == fail_unit_)
      throw pio::Error("injected failure in " + method + " at unit " + std::to_string(u.unit) +
                           " on rank " + std::to_string(rank_),
                       "this is the phase-loop test module");
  }
  std::int64_t units_ = 1;
  double write_delay_ = 0;
  std::string fail_in_;
  int fail_rank_ = 0;
  std::int64_t fail_unit_ = 0;
  pio::io::Interface *io_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::vector<unsigned char> buf_;
};

pio::ModuleInfo phase_loop_info() {
  pio::ModuleInfo m("test_phase_loop", pio::make_module<PhaseLoop>);
  m.summary = "test only: a write phase and a read phase that checks every byte the write wrote";
  m.reference = "tests/core";
  m.directives = {
      pio::DirectiveSpec{"WorkUnits", pio::DirectiveType::Integer, "8", "units per phase"}.at_least(
          1),
      pio::DirectiveSpec{"WriteDelayMs", pio::DirectiveType::Real, "0", "sleep in every write unit"}
          .at_least(0),
      {"FailIn",
       pio::DirectiveType::Text,
       "none",
       "method that fails (after the unit's collective call)",
       {"none", "before_work_unit", "work_unit", "after_work_unit"}},
      pio::DirectiveSpec{"FailRank", pio::DirectiveType::Integer, "0", "rank that fails"}.at_least(
          0),
      pio::DirectiveSpec{"FailUnit", pio::DirectiveType::Integer, "0",
                         "unit of the write phase that fails"}
          .at_least(0)};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{phase_loop_info()})
