// Exchange (IMB 3.2 User Guide §3.3.3.2): a periodic chain; each rank MPI_Isends X bytes to the
// right and X bytes to the left from separate buffers, MPI_Recvs X bytes from the left and then
// from the right, MPI_Waitall. time = Δt, throughput 4X / time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

constexpr int kTag = 1;

class Exchange : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("Exchange", "§3.3.3.2", Kind::Parallel).with_bytes_scale(4.0);
    return t;
  }
  // Two send buffers of X (new in IMB 3.1), one receive buffer of X used twice.
  Lengths lengths(std::int64_t x, int) const override { return {2 * x, x}; }
  void run(const Op &op, std::int64_t i) override {
    const int right = (op.rank + 1) % op.np, left = (op.rank + op.np - 1) % op.np;
    const int n = op.count(false);
    MPI_Request req[2];
    pio::mpi_check(MPI_Isend(op.buf->send.at(i), n, MPI_BYTE, right, kTag, op.comm, &req[0]),
                   "MPI_Isend");
    pio::mpi_check(MPI_Isend(op.buf->send.at(i) + op.x, n, MPI_BYTE, left, kTag, op.comm, &req[1]),
                   "MPI_Isend");
    pio::mpi_check(
        MPI_Recv(op.buf->recv.at(i), n, MPI_BYTE, left, kTag, op.comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
    pio::mpi_check(
        MPI_Recv(op.buf->recv.at(i), n, MPI_BYTE, right, kTag, op.comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
    pio::mpi_check(MPI_Waitall(2, req, MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  // The last receive came from the right, which sent its second buffer to its left.
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), (op.rank + 1) % op.np, op.x, op.x);
  }
  std::int64_t bytes_sent(const Op &op) const override { return 2 * op.x; }
};

} // namespace

std::unique_ptr<Kernel> make_exchange() { return std::make_unique<Exchange>(); }

} // namespace imb
