// Accumulate (IMB 3.2 User Guide §4.2.3.5): every active process reduces a vector of
// L = X / sizeof(float) MPI_FLOATs into the window of root 0 with MPI_Accumulate and MPI_SUM.
// Transfer i goes to section i of the root's window in aggregate mode (disjoint, §4.2.2.2.2),
// to section 0 otherwise; completion by MPI_Win_fence (§4.2.2.2.1). Bare time, no throughput.
#include <cmath>

#include "one_sided.hpp"

namespace imb::ext {
namespace {

class Accumulate : public OneSided {
public:
  Accumulate() : OneSided(Mode::Aggregate, true) {}
  const Traits &traits() const override {
    static const Traits t =
        Traits("Accumulate", "§4.2.3.5", Kind::Collective).with_data(Data::FloatSum);
    return t;
  }

  void prepare(const Op &op) override {
    open_window(op, op.x, op.rank == 0, static_cast<int>(sizeof(float)));
  }

  void run(const Op &op, std::int64_t i) override {
    accumulate(op, i);
    fence();
  }

  void sample(const Op &op, std::int64_t n) override {
    if (mode() == Mode::NonAggregate)
      return OneSided::sample(op, n);
    for (std::int64_t i = 0; i < n; ++i)
      accumulate(op, i);
    fence();
  }

  /// On the root: every section a transfer of the sample reached holds m times the sum over the
  /// ranks, m >= 1 the same for the whole section (earlier samples and warm-up add to it too).
  std::string check(const Op &op, std::int64_t last) const override {
    if (op.rank != 0)
      return "";
    const std::int64_t l = op.x / static_cast<std::int64_t>(sizeof(float));
    const std::int64_t first = mode() == Mode::Aggregate ? 0 : last;
    for (std::int64_t i = first; i <= last; ++i) {
      const float *got = reinterpret_cast<const float *>(memory_.data()) + section(i) * l;
      double m = -1;
      for (std::int64_t k = 0; k < l; ++k) {
        double sum = 0;
        for (int r = 0; r < op.np; ++r)
          sum += float_of(r, k);
        const double ratio = got[k] / sum;
        if (m < 0)
          m = ratio;
        if (ratio != m || m < 1 || m != std::floor(m))
          return "section " + std::to_string(section(i)) + " element " + std::to_string(k) +
                 " is " + std::to_string(got[k]) + ", not a multiple " + std::to_string(m) +
                 " of the sum " + std::to_string(sum);
      }
    }
    return "";
  }

private:
  /// The elementary transfer i (§5.2.8: the pure MPI_Accumulate).
  void accumulate(const Op &op, std::int64_t i) const {
    const int l = op.count(true);
    pio::mpi_check(MPI_Accumulate(op.buf->send.at(i), l, MPI_FLOAT, 0,
                                  static_cast<MPI_Aint>(section(i) * l), l, MPI_FLOAT, MPI_SUM,
                                  win_.get()),
                   "MPI_Accumulate");
  }
};

} // namespace

std::unique_ptr<OneSided> make_accumulate() { return std::make_unique<Accumulate>(); }

} // namespace imb::ext
