// PingPing (IMB 3.2 User Guide §3.3.2.2): both ranks MPI_Isend X bytes to each other at once,
// MPI_Recv the oncoming message, MPI_Wait. time = Δt, throughput X / time (one message).
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

constexpr int kTag = 1;

class PingPing : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("PingPing", "§3.3.2.2", Kind::Single);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    const int peer = 1 - op.rank, n = op.count(false);
    MPI_Request req;
    pio::mpi_check(MPI_Isend(op.buf->send.at(i), n, MPI_BYTE, peer, kTag, op.comm, &req),
                   "MPI_Isend");
    pio::mpi_check(
        MPI_Recv(op.buf->recv.at(i), n, MPI_BYTE, peer, kTag, op.comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
    pio::mpi_check(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Wait");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), 1 - op.rank, 0, op.x);
  }
};

} // namespace

std::unique_ptr<Kernel> make_pingping() { return std::make_unique<PingPing>(); }

} // namespace imb
