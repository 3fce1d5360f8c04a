// Reduce_scatter (IMB 3.2 User Guide §3.3.4.2): MPI_Reduce_scatter of L = X / sizeof(float)
// floats (MPI_FLOAT, MPI_SUM), the L results split as evenly as possible: with L = r np + s,
// ranks below s get r + 1, the others r. Bare time. (IMB-MPI1 2019 Update 3 and later give every
// rank L results of an np L vector instead, np times the reduction: ReduceScatter block, the
// default of Methodology imb2019; docs/reference/imb.md.)
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class ReduceScatter : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Reduce_scatter", "§3.3.4.2", Kind::Collective).with_data(Data::FloatSum);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x}; }
  void prepare(const Op &op) override {
    counts_ = reduce_scatter_counts(op.count(true), op.np, op.split_scatter);
  }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Reduce_scatter(op.buf->send.at(i), op.buf->recv.at(i), counts_.data(),
                                      MPI_FLOAT, MPI_SUM, op.comm),
                   "MPI_Reduce_scatter");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    const Share s = op.split_scatter ? scatter_share(op.count(true), op.np, op.rank)
                                     : Share{static_cast<std::int64_t>(op.rank) * op.count(true),
                                             op.count(true)};
    return expect_sums(op.buf->recv.at(i), op.np, s.first, s.count);
  }

private:
  std::vector<int> counts_;
};

} // namespace

std::unique_ptr<Kernel> make_reduce_scatter() { return std::make_unique<ReduceScatter>(); }

} // namespace imb
