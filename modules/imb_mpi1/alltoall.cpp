// Alltoall (IMB 3.2 User Guide §3.3.4.10): every rank inputs X * np bytes (MPI_BYTE), X for
// each rank, and receives X * np bytes, X from each rank. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Alltoall : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Alltoall", "§3.3.4.10", Kind::Collective);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x * np}; }
  void run(const Op &op, std::int64_t i) override {
    const int n = op.count(false);
    pio::mpi_check(
        MPI_Alltoall(op.buf->send.at(i), n, MPI_BYTE, op.buf->recv.at(i), n, MPI_BYTE, op.comm),
        "MPI_Alltoall");
  }
  // Block p came from rank p's block for this rank.
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, op.rank * op.x);
  }
  std::int64_t bytes_sent(const Op &op) const override { return op.x * op.np; }
};

} // namespace

std::unique_ptr<Kernel> make_alltoall() { return std::make_unique<Alltoall>(); }

} // namespace imb
