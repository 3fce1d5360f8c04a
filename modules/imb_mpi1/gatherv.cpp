// Gatherv (IMB 3.2 User Guide §3.3.4.9): Gather through MPI_Gatherv, X bytes from rank p at
// displacement p X of the root's buffer. The root is i % np in iteration i. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Gatherv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Gatherv", "§3.3.4.9", Kind::Collective).with_root(Root::Rotating);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x, x * np}; }
  void prepare(const Op &op) override { blocks_ = equal_blocks(op.np, op.count(false)); }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Gatherv(op.buf->send.at(i), op.count(false), MPI_BYTE, op.buf->recv.at(i),
                               blocks_.counts.data(), blocks_.displs.data(), MPI_BYTE, op.root(i),
                               op.comm),
                   "MPI_Gatherv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    if (op.rank != op.root(i))
      return {};
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, 0);
  }

private:
  Blocks blocks_;
};

} // namespace

std::unique_ptr<Kernel> make_gatherv() { return std::make_unique<Gatherv>(); }

} // namespace imb
