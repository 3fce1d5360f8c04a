// IMB PingPong (IMB 3.2 User Guide §3.3.2.1): rank 0 sends X bytes to rank 1 (MPI_Send),
// which receives them and sends them back; a sample is n_sample such round trips.
//   n_sample = MSGSPERSAMPLE for X = 0, else max(1, min(MSGSPERSAMPLE, OVERALL_VOL / X)) (§5.2.8)
//   t = Δt / 2 per message, throughput = X / t (§3.3.1): declared as CommSemantics, so the
//   harness derives t and the throughput from each rank's time and prints IMB's table (§6).
// One work unit is one sample, timed by the harness between barriers as in §5.2.8.1.
// No file. Runs on the first two ranks (the others idle, as in IMB).
#include <vector>

#include "pio/pio.hpp"

namespace {

constexpr int kTag = 17;

class PingPong : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    const std::int64_t per_sample = ctx.settings.integer("MsgsPerSample");
    const std::int64_t overall = ctx.settings.size("OverallVolume");
    std::vector<pio::TestSpec> tests;
    for (std::int64_t x : ctx.settings.sizes("MsgLengths")) {
      const std::int64_t n =
          x == 0 ? per_sample : std::max<std::int64_t>(1, std::min(per_sample, overall / x));
      pio::TestSpec t;
      t.label = std::to_string(x);
      t.buffer_size = x;
      t.file = pio::FileUse::None;
      t.groups = pio::RankGroups::first(2);
      t.phases[0].work_units = ctx.settings.integer("Samples");
      t.comm = pio::CommSemantics{n, 0.5, x, 1.0, pio::Report::Both};
      t.params = {{"benchmark", "PingPong"}, {"n_sample", std::to_string(n)}};
      tests.push_back(t);
    }
    return tests;
  }

  void describe_test(pio::TestContext &test) override {
    bytes_ = test.spec().comm->message_bytes;
    n_sample_ = test.spec().comm->ops_per_unit;
    buffer_.assign(static_cast<size_t>(std::max<std::int64_t>(bytes_, 1)), 0);
    for (size_t i = 0; i < buffer_.size(); ++i)
      buffer_[i] = static_cast<char>(i * 7 + static_cast<size_t>(test.rank));
    comm_ = test.comm;
    rank_ = test.rank;
  }

  std::int64_t work_unit(pio::UnitContext &) override {
    const int count = static_cast<int>(bytes_);
    for (std::int64_t i = 0; i < n_sample_; ++i) {
      if (rank_ == 0) {
        pio::mpi_check(MPI_Send(buffer_.data(), count, MPI_BYTE, 1, kTag, comm_), "MPI_Send");
        pio::mpi_check(MPI_Recv(buffer_.data(), count, MPI_BYTE, 1, kTag, comm_, MPI_STATUS_IGNORE),
                       "MPI_Recv");
      } else {
        pio::mpi_check(MPI_Recv(buffer_.data(), count, MPI_BYTE, 0, kTag, comm_, MPI_STATUS_IGNORE),
                       "MPI_Recv");
        pio::mpi_check(MPI_Send(buffer_.data(), count, MPI_BYTE, 0, kTag, comm_), "MPI_Send");
      }
    }
    return bytes_ * n_sample_; // each rank sends n_sample messages
  }

  void cleanup_test(pio::TestContext &) override { buffer_.clear(); }

private:
  std::int64_t bytes_ = 0, n_sample_ = 1;
  std::vector<char> buffer_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
};

pio::ModuleInfo pingpong_info() {
  pio::ModuleInfo m("imb_pingpong", pio::make_module<PingPong>);
  m.title = "PingPong";
  m.summary = "IMB PingPong: a message bounced between two ranks; t = Δt/2, throughput X/t";
  m.reference = "IMB 3.2 User Guide §3.3.2.1, §5.2.8";
  m.needs_file = false;
  m.output = pio::Output::Imb;
  m.directives = {
      pio::DirectiveSpec{"MsgLengths", pio::DirectiveType::Sizes,
                         "0 1 2 4 8 16 32 64 128 256 512 1K 2K 4K 8K 16K 32K 64K 128K 256K 512K "
                         "1M 2M 4M",
                         "message lengths X in bytes (IMB default 0, 1, 2, 4, ..., 4M)"}
          .at_most(2147483647.0),
      pio::DirectiveSpec{"MsgsPerSample", pio::DirectiveType::Integer, "1000",
                         "MSGSPERSAMPLE: round trips per sample (IMB §5.2.8)"}
          .at_least(1),
      pio::DirectiveSpec{"OverallVolume", pio::DirectiveType::Size, "4M",
                         "OVERALL_VOL: caps n_sample at OVERALL_VOL / X (IMB §5.2.8)"}
          .at_least(1),
      pio::DirectiveSpec{"Samples", pio::DirectiveType::Integer, "1",
                         "samples (work units) per repetition"}
          .at_least(1)};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pingpong_info()})
