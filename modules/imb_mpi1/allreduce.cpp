// Allreduce (IMB 3.2 User Guide §3.3.4.3): MPI_Allreduce of L = X / sizeof(float) floats
// (MPI_FLOAT, MPI_SUM). Bare time.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Allreduce : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Allreduce", "§3.3.4.3", Kind::Collective).with_data(Data::FloatSum);
    return t;
  }
  void run(const Op &op, std::int64_t i) override {
    pio::mpi_check(MPI_Allreduce(op.buf->send.at(i), op.buf->recv.at(i), op.count(true), MPI_FLOAT,
                                 MPI_SUM, op.comm),
                   "MPI_Allreduce");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    return expect_sums(op.buf->recv.at(i), op.np, 0, op.count(true));
  }
};

} // namespace

std::unique_ptr<Kernel> make_allreduce() { return std::make_unique<Allreduce>(); }

} // namespace imb
