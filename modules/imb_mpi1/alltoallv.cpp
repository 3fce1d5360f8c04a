// Alltoallv (IMB 3.2 User Guide §3.3.4.11): Alltoall through MPI_Alltoallv, X bytes to and from
// every rank at displacements p X. Bare time.
#include "kernel.hpp"

namespace imb {
namespace {

class Alltoallv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t{"Alltoallv", "§3.3.4.11", Kind::Collective, false, 1.0, 1.0, false, true};
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x * np, x * np}; }
  void prepare(const Op &op) override {
    counts_.assign(static_cast<size_t>(op.np), op.count(false));
    displs_.resize(static_cast<size_t>(op.np));
    for (int p = 0; p < op.np; ++p)
      displs_[static_cast<size_t>(p)] = p * op.count(false);
  }
  void run(const Op &op, std::int64_t i) override {
    mpi(MPI_Alltoallv(op.buf->send.at(i), counts_.data(), displs_.data(), MPI_BYTE,
                      op.buf->recv.at(i), counts_.data(), displs_.data(), MPI_BYTE, op.comm),
        "MPI_Alltoallv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    for (int p = 0; p < op.np; ++p)
      if (auto e = expect_bytes(op.buf->recv.at(i) + p * op.x, p, op.rank * op.x, op.x); !e.empty())
        return "block " + std::to_string(p) + ": " + e;
    return {};
  }
  std::int64_t bytes_sent(const Op &op) const override { return op.x * op.np; }

private:
  std::vector<int> counts_, displs_;
};

} // namespace

std::unique_ptr<Kernel> make_alltoallv() { return std::make_unique<Alltoallv>(); }

} // namespace imb
