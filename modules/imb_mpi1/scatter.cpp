// Scatter (IMB 3.2 User Guide §3.3.4.6): the root inputs X * np bytes (MPI_BYTE), X for each
// rank; every rank receives X bytes. The root is i % np in iteration i. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Scatter : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Scatter", "§3.3.4.6", Kind::Collective).with_root(Root::Rotating);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x}; }
  void run(const Op &op, std::int64_t i) override {
    const int n = op.count(false);
    pio::mpi_check(MPI_Scatter(op.buf->send.at(i), n, MPI_BYTE, op.buf->recv.at(i), n, MPI_BYTE,
                               op.root(i), op.comm),
                   "MPI_Scatter");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), op.root(i), op.rank * op.x, op.x);
  }
};

} // namespace

std::unique_ptr<Kernel> make_scatter() { return std::make_unique<Scatter>(); }

} // namespace imb
