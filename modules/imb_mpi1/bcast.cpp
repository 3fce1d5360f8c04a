// Bcast (IMB 3.2 User Guide §3.3.4.12): the root broadcasts X bytes (MPI_BYTE) to all; the root
// is i % np in iteration i. The root sends from its send buffer, the others receive into their
// receive buffer, so the root's data is never overwritten. Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Bcast : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Bcast", "§3.3.4.12", Kind::Collective).with_root(Root::Rotating);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    const int root = op.root(i);
    char *buf = op.rank == root ? op.buf->send.at(i) : op.buf->recv.at(i);
    pio::mpi_check(MPI_Bcast(buf, op.count(false), MPI_BYTE, root, op.comm), "MPI_Bcast");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    const int root = op.root(i);
    return op.rank == root ? expect_bytes(op.buf->send.at(i), root, 0, op.x)
                           : expect_bytes(op.buf->recv.at(i), root, 0, op.x);
  }
  std::int64_t bytes_sent(const Op &op) const override { return op.rank == 0 ? op.x : 0; }
};

} // namespace

std::unique_ptr<Kernel> make_bcast() { return std::make_unique<Bcast>(); }

} // namespace imb
