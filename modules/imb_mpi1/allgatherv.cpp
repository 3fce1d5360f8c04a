// Allgatherv (IMB 3.2 User Guide §3.3.4.5): Allgather through MPI_Allgatherv with X bytes from
// every rank at displacement p X, to show the overhead of the more general call. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Allgatherv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Allgatherv", "§3.3.4.5", Kind::Collective);
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x, x * np}; }
  void prepare(const Op &op) override { blocks_ = equal_blocks(op.np, op.count(false)); }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Allgatherv(op.buf->send.at(i), op.count(false), MPI_BYTE, op.buf->recv.at(i),
                                  blocks_.counts.data(), blocks_.displs.data(), MPI_BYTE, op.comm),
                   "MPI_Allgatherv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_blocks(op.buf->recv.at(i), op.np, op.x, 0);
  }

private:
  Blocks blocks_;
};

} // namespace

std::unique_ptr<Kernel> make_allgatherv() { return std::make_unique<Allgatherv>(); }

} // namespace imb
