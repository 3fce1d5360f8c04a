// Gather (IMB 3.2 User Guide §3.3.4.8): every rank inputs X bytes (MPI_BYTE); the root receives
// X * np bytes, block p from rank p. The root is i % np in iteration i. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Gather : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Gather", "§3.3.4.8", Kind::Collective).with_root(Root::Rotating);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x, x * np}; }
  void run(const Op &op, std::int64_t i) override {
    const int n = op.count(false);
    pio::mpi_check(MPI_Gather(op.buf->send.at(i), n, MPI_BYTE, op.buf->recv.at(i), n, MPI_BYTE,
                              op.root(i), op.comm),
                   "MPI_Gather");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    if (op.rank != op.root(i))
      return {};
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, 0);
  }
};

} // namespace

std::unique_ptr<Kernel> make_gather() { return std::make_unique<Gather>(); }

} // namespace imb
