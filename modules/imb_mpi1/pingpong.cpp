// PingPong (IMB 3.2 User Guide §3.3.2.1): rank 0 sends X bytes to rank 1 (MPI_Send), which
// receives them (MPI_Recv) and sends X bytes back. time = Δt / 2, throughput X / time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

constexpr int kTag = 1;

class PingPong : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t = Traits("PingPong", "§3.3.2.1", Kind::Single).with_time_scale(0.5);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    const int peer = 1 - op.rank, n = op.count(false);
    if (op.rank == 0) {
      pio::mpi_check(MPI_Send(op.buf->send.at(i), n, MPI_BYTE, peer, kTag, op.comm), "MPI_Send");
      pio::mpi_check(
          MPI_Recv(op.buf->recv.at(i), n, MPI_BYTE, peer, kTag, op.comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
    } else {
      pio::mpi_check(
          MPI_Recv(op.buf->recv.at(i), n, MPI_BYTE, peer, kTag, op.comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
      pio::mpi_check(MPI_Send(op.buf->send.at(i), n, MPI_BYTE, peer, kTag, op.comm), "MPI_Send");
    }
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_bytes(op.buf->recv.at(i), 1 - op.rank, 0, op.x);
  }
};

} // namespace

std::unique_ptr<Kernel> make_pingpong() { return std::make_unique<PingPong>(); }

} // namespace imb
