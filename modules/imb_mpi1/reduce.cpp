// Reduce (IMB 3.2 User Guide §3.3.4.1): MPI_Reduce of L = X / sizeof(float) floats (MPI_FLOAT,
// MPI_SUM) to the root, which is i % np in iteration i. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Reduce : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Reduce", "§3.3.4.1", Kind::Collective)
                                .with_data(Data::FloatSum)
                                .with_root(Root::Rotating);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Reduce(op.buf->send.at(i), op.buf->recv.at(i), op.count(true), MPI_FLOAT,
                              MPI_SUM, op.root(i), op.comm),
                   "MPI_Reduce");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return op.rank == op.root(i) ? expect_sums(op.buf->recv.at(i), op.np, 0, op.count(true)) : "";
  }
};

} // namespace

std::unique_ptr<Kernel> make_reduce() { return std::make_unique<Reduce>(); }

} // namespace imb
