// Allgather (IMB 3.2 User Guide §3.3.4.4): every rank inputs X bytes (MPI_BYTE) and receives
// the gathered X * np bytes, block p from rank p. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Allgather : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Allgather", "§3.3.4.4", Kind::Collective);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x, x * np}; }
  void run(const Op &op, std::int64_t i) override {
    const int n = op.count(false);
    pio::mpi_check(
        MPI_Allgather(op.buf->send.at(i), n, MPI_BYTE, op.buf->recv.at(i), n, MPI_BYTE, op.comm),
        "MPI_Allgather");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, 0);
  }
};

} // namespace

std::unique_ptr<Kernel> make_allgather() { return std::make_unique<Allgather>(); }

} // namespace imb
