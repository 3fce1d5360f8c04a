// Sendrecv (IMB 3.2 User Guide §3.3.3.1): a periodic chain; each rank sends X bytes to the right
// and receives X bytes from the left in one MPI_Sendrecv. time = Δt, throughput 2X / time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

constexpr int kTag = 1;

class Sendrecv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Sendrecv", "§3.3.3.1", Kind::Parallel).with_bytes_scale(2.0);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    const int right = (op.rank + 1) % op.np, left = (op.rank + op.np - 1) % op.np;
    const int n = op.count(false);
    pio::mpi_check(MPI_Sendrecv(op.buf->send.at(i), n, MPI_BYTE, right, kTag, op.buf->recv.at(i), n,
                                MPI_BYTE, left, kTag, op.comm, MPI_STATUS_IGNORE),
                   "MPI_Sendrecv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), (op.rank + op.np - 1) % op.np, 0, op.x);
  }
};

} // namespace

std::unique_ptr<Kernel> make_sendrecv() { return std::make_unique<Sendrecv>(); }

} // namespace imb
