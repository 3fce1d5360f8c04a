// IMB PingPong (IMB 3.2 User Guide §3.3.2.1): rank 0 sends X bytes to rank 1 (MPI_Send),
// which receives them and sends them back; a sample is n_sample such round trips.
//   time t = Δt / 2 per message (µs), reported throughput = X / 1.048576 / t  (MiB/s, §3.3.1)
//   n_sample = MSGSPERSAMPLE for X = 0, else max(1, min(MSGSPERSAMPLE, OVERALL_VOL / X)) (§5.2.8)
// One work unit is one sample, timed by the harness between barriers as in §5.2.8.1.
// No file. Runs on the first two ranks (the others idle, as in IMB).
#include <cstdio>
#include <vector>

#include "pio/pio.hpp"

namespace {

constexpr int kTag = 17;

class PingPong : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    const std::int64_t per_sample = ctx.settings.integer("MsgsPerSample");
    const std::int64_t overall = ctx.settings.size("OverallVolume");
    if (per_sample < 1)
      throw pio::Error("MsgsPerSample must be at least 1", "IMB's default is 1000");
    std::vector<pio::TestSpec> tests;
    for (std::int64_t x : ctx.settings.sizes("MsgLengths")) {
      if (x > INT32_MAX)
        throw pio::Error("message length " + pio::format_size(x) + " exceeds 2 GiB - 1",
                         "IMB message lengths are int counts");
      const std::int64_t n =
          x == 0 ? per_sample : std::max<std::int64_t>(1, std::min(per_sample, overall / x));
      pio::TestSpec t;
      t.label = std::to_string(x);
      t.buffer_size = x;
      t.file = pio::FileUse::None;
      t.procs = 2;
      t.phases[0].work_units = ctx.settings.integer("Samples");
      t.params = {{"bytes", std::to_string(x)}, {"n_sample", std::to_string(n)}};
      tests.push_back(t);
    }
    return tests;
  }

  void describe_test(pio::TestContext &test) override {
    bytes_ = std::stoll(test.spec->params.at("bytes"));
    n_sample_ = std::stoll(test.spec->params.at("n_sample"));
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
    // Each rank sends n_sample messages: the sum over both ranks divided by the unit time is
    // X / (Δt / 2) per message, IMB's throughput.
    return bytes_ * n_sample_;
  }

  void cleanup_test(pio::TestContext &) override { buffer_.clear(); }

  /// The IMB PingPong table (§6): #bytes, #repetitions, t[usec], Mbytes/sec.
  nlohmann::json summarize(const nlohmann::json &module) override {
    nlohmann::json rows = nlohmann::json::array();
    std::string text = "\n#---------------------------------------------------\n"
                       "# Benchmarking PingPong (IMB 3.2 §3.3.2.1)\n"
                       "#---------------------------------------------------\n"
                       "       #bytes #repetitions      t[usec]   Mbytes/sec\n";
    for (const auto &t : module["tests"]) {
      if (!t["error"].is_null() || t["reps"].empty())
        continue;
      const double x = t["buffer_size"].get<double>();
      const double n = std::stod(t["params"]["n_sample"].get<std::string>());
      // Best repetition's time per unit: t = Δt / (2 n_sample).
      double best = 0;
      for (const auto &r : t["reps"]) {
        const double per_unit = r["aggregate_time_s"].get<double>() / r["units"].get<double>();
        if (best == 0 || per_unit < best)
          best = per_unit;
      }
      const double usec = best / (2 * n) * 1e6;
      const double mbs = usec > 0 ? x / 1.048576 / usec : 0;
      rows.push_back({{"bytes", x}, {"repetitions", n}, {"t_usec", usec}, {"Mbytes_per_s", mbs}});
      char line[128];
      std::snprintf(line, sizeof line, "%13.0f %12.0f %12.2f %12.2f\n", x, n, usec, mbs);
      text += line;
    }
    return {{"benchmark", "PingPong"}, {"rows", rows}, {"text", text}};
  }

private:
  std::int64_t bytes_ = 0, n_sample_ = 1;
  std::vector<char> buffer_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
};

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"imb_pingpong",
     "PingPong",
     "IMB PingPong: a message bounced between two ranks; t = Δt/2, throughput X/1.048576/t",
     "IMB 3.2 User Guide §3.3.2.1, §5.2.8",
     false,
     {{"MsgLengths", pio::DirectiveType::Sizes,
       "0 1 2 4 8 16 32 64 128 256 512 1K 2K 4K 8K 16K 32K 64K 128K 256K 512K 1M 2M 4M",
       "message lengths X in bytes (IMB default 0, 1, 2, 4, ..., 4M)"},
      {"MsgsPerSample", pio::DirectiveType::Integer, "1000",
       "MSGSPERSAMPLE: round trips per sample (IMB §5.2.8)"},
      {"OverallVolume", pio::DirectiveType::Size, "4M",
       "OVERALL_VOL: caps n_sample at OVERALL_VOL / X (IMB §5.2.8)"},
      {"Samples", pio::DirectiveType::Integer, "1", "samples (work units) per repetition"}},
     [] { return std::make_unique<PingPong>(); }}})
