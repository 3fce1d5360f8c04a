// Barrier (IMB 3.2 User Guide §3.3.4.13): MPI_Barrier. Bare time, no message length.
#include "mpi1_kernels.hpp"

namespace imb {
namespace {

class Barrier : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t =
        Traits("Barrier", "§3.3.4.13", Kind::Collective).with_message(Message::None);
    return t;
  }
  Lengths lengths(std::int64_t, int) const override { return {0, 0}; }
  void run(const Op &op, std::int64_t) override {
    pio::mpi_check(MPI_Barrier(op.comm), "MPI_Barrier");
  }
  std::string check(const Op &, std::int64_t) const override { return {}; }
  std::int64_t bytes_sent(const Op &) const override { return 0; }
};

} // namespace

std::unique_ptr<Kernel> make_barrier() { return std::make_unique<Barrier>(); }

} // namespace imb
