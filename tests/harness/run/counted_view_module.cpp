// Test-only module: the pattern engine's simple strided write through a file view (strip =
// buffer, as `ior -b B -t B -s units`), with every transfer counted on the way through the I/O
// seam. A counting Interface wraps the harness's and records, per rank, the calls and bytes made
// inside work_unit (the timed bracket) and outside it, and the seconds spent in them; the last
// rank can be made slower (SlowRankDelayMs per call, as a rank whose writes are serialised behind
// the others' on one inode, still in its unit when the others have left theirs). cleanup_test
// writes one line per rank to CountFile:
//   rank calls_in_units bytes_in_units calls_outside bytes_outside io_seconds_in_units
// so a test can hold the phase's aggregate time against the I/O its ranks made inside it.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "pio/io/forwarding_interface.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/patterns/strided_geometry.hpp"
#include "pio/pio.hpp"

namespace {

using pio::patterns::Extent;

/// Unit u of rank r: one strip of B bytes at (u * size + r) * B, seen through a one-strip view.
class OneStrip : public pio::patterns::Geometry {
public:
  OneStrip(std::int64_t strip, int size) : strip_(strip), size_(size) {}
  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    return {{(unit * size_ + rank) * strip_, strip_}};
  }
  pio::patterns::FileView view(int rank, std::int64_t unit) const override {
    return {(unit * size_ + rank) * strip_,
            pio::patterns::strided_vector(1, strip_, strip_ * size_)};
  }

private:
  std::int64_t strip_;
  int size_;
};

class Strided : public pio::patterns::PatternModule {
  std::vector<pio::patterns::PatternTest> make_tests(const pio::ModuleContext &ctx) override {
    const std::int64_t b = ctx.settings.size("BufferSize");
    return {{pattern_spec(pio::format_size(b), b), std::make_shared<OneStrip>(b, ctx.size)}};
  }
};

/// What one rank's transfers through the seam amounted to.
struct Counts {
  std::int64_t calls_in = 0, bytes_in = 0, calls_out = 0, bytes_out = 0;
  double seconds_in = 0;
};

/// The harness's Interface with every transfer counted (elements x datatype size = bytes).
class CountingIo final : public pio::io::ForwardingInterface {
public:
  bool in_unit = false;
  double delay_s = 0; // per transfer, on this rank
  Counts counts;

  std::int64_t start(const pio::io::Transfer &t) override {
    const double t0 = MPI_Wtime();
    const std::int64_t moved = inner->start(t);
    // After the call: a collective transfer has let the other ranks go on already.
    if (delay_s > 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
    int type_size = 0;
    MPI_Type_size(t.datatype, &type_size);
    const std::int64_t bytes = static_cast<std::int64_t>(t.count) * type_size;
    if (in_unit) {
      ++counts.calls_in;
      counts.bytes_in += bytes;
      counts.seconds_in += MPI_Wtime() - t0;
    } else {
      ++counts.calls_out;
      counts.bytes_out += bytes;
    }
    return moved;
  }
};

class CountedView : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    count_file_ = ctx.settings.text("CountFile");
    delay_s_ = ctx.settings.real("SlowRankDelayMs") / 1000.0;
    return inner_.init_module(ctx);
  }
  void describe_test(pio::TestContext &t) override {
    io_.inner = t.io;
    io_.counts = Counts{};
    io_.delay_s = t.size > 1 && t.rank == t.size - 1 ? delay_s_ : 0;
    t.io = &io_;
    inner_.describe_test(t);
  }
  void before_work_unit(pio::UnitContext &u) override { inner_.before_work_unit(u); }
  std::int64_t work_unit(pio::UnitContext &u) override {
    io_.in_unit = true;
    const std::int64_t moved = inner_.work_unit(u);
    io_.in_unit = false;
    return moved;
  }
  void after_work_unit(pio::UnitContext &u) override { inner_.after_work_unit(u); }
  void cleanup_test(pio::TestContext &t) override {
    inner_.cleanup_test(t);
    const Counts &c = io_.counts;
    double mine[6] = {static_cast<double>(c.calls_in),
                      static_cast<double>(c.bytes_in),
                      static_cast<double>(c.calls_out),
                      static_cast<double>(c.bytes_out),
                      c.seconds_in,
                      0};
    std::vector<double> all(static_cast<size_t>(6 * t.size));
    pio::mpi_check(MPI_Gather(mine, 6, MPI_DOUBLE, all.data(), 6, MPI_DOUBLE, 0, t.comm),
                   "MPI_Gather");
    if (t.rank != 0)
      return;
    std::ofstream out(count_file_);
    for (int r = 0; r < t.size; ++r) {
      const double *v = &all[static_cast<size_t>(6 * r)];
      char line[200];
      std::snprintf(line, sizeof line, "%d %.0f %.0f %.0f %.0f %.9f\n", r, v[0], v[1], v[2], v[3],
                    v[4]);
      out << line;
    }
    if (!out)
      throw pio::Error("cannot write CountFile " + count_file_, "give a writable path");
  }

private:
  Strided inner_;
  CountingIo io_;
  std::string count_file_;
  double delay_s_ = 0;
};

pio::ModuleInfo info() {
  pio::ModuleInfo m("test_counted_view", pio::make_module<CountedView>);
  m.summary = "test only: simple strided writes through a view, transfers counted at the seam";
  m.reference = "tests/harness/run";
  m.directives = pio::patterns::pattern_directives("8");
  m.directives.push_back(
      pio::DirectiveSpec{"BufferSize", pio::DirectiveType::Size, "64K", "bytes per rank per unit"}
          .at_least(1));
  m.directives.push_back(pio::DirectiveSpec{"CountFile", pio::DirectiveType::Text, "",
                                            "where rank 0 writes every rank's counts"});
  m.directives.push_back(pio::DirectiveSpec{"SlowRankDelayMs", pio::DirectiveType::Real, "0",
                                            "extra milliseconds per transfer on the last rank"}
                             .at_least(0));
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
