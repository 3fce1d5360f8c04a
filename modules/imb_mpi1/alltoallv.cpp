// Alltoallv (IMB 3.2 User Guide §3.3.4.11): Alltoall through MPI_Alltoallv, X bytes to and from
// every rank at displacements p X. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Alltoallv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Alltoallv", "§3.3.4.11", Kind::Collective);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x * np}; }
  void prepare(const Op &op) override { blocks_ = equal_blocks(op.np, op.count(false)); }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Alltoallv(op.buf->send.at(i), blocks_.counts.data(), blocks_.displs.data(),
                                 MPI_BYTE, op.buf->recv.at(i), blocks_.counts.data(),
                                 blocks_.displs.data(), MPI_BYTE, op.comm),
                   "MPI_Alltoallv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, op.rank * op.x);
  }
  std::int64_t bytes_sent(const Op &op) const override { return op.x * op.np; }

private:
  Blocks blocks_;
};

} // namespace

std::unique_ptr<Kernel> make_alltoallv() { return std::make_unique<Alltoallv>(); }

} // namespace imb
