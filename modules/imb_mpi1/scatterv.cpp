// Scatterv (IMB 3.2 User Guide §3.3.4.7): Scatter through MPI_Scatterv, X bytes for rank p at
// displacement p X of the root's buffer. The root is i % np in iteration i. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Scatterv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Scatterv", "§3.3.4.7", Kind::Collective).with_root(Root::Rotating);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x}; }
  void prepare(const Op &op) override { blocks_ = equal_blocks(op.np, op.count(false)); }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Scatterv(op.buf->send.at(i), blocks_.counts.data(), blocks_.displs.data(),
                                MPI_BYTE, op.buf->recv.at(i), op.count(false), MPI_BYTE, op.root(i),
                                op.comm),
                   "MPI_Scatterv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), op.root(i), op.rank * op.x, op.x);
  }

private:
  Blocks blocks_;
};

} // namespace

std::unique_ptr<Kernel> make_scatterv() { return std::make_unique<Scatterv>(); }

} // namespace imb
