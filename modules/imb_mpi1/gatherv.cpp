// Gatherv (IMB 3.2 User Guide §3.3.4.9): Gather through MPI_Gatherv, X bytes from rank p at
// displacement p X of the root's buffer. The root is i % np in iteration i. Bare time.
#include "kernel.hpp"

namespace imb {
namespace {

class Gatherv : public Kernel {
public:
  const Traits &traits() const override {
    static const Traits t{"Gatherv", "§3.3.4.9", Kind::Collective, false, 1.0, 1.0, true, true};
    return t;
  }
  Lengths lengths(std::int64_t x, int np) const override { return {x, x * np}; }
  void prepare(const Op &op) override {
    counts_.assign(static_cast<size_t>(op.np), op.count(false));
    displs_.resize(static_cast<size_t>(op.np));
    for (int p = 0; p < op.np; ++p)
      displs_[static_cast<size_t>(p)] = p * op.count(false);
  }
  void run(const Op &op, std::int64_t i) override {
    mpi(MPI_Gatherv(op.buf->send.at(i), op.count(false), MPI_BYTE, op.buf->recv.at(i),
                    counts_.data(), displs_.data(), MPI_BYTE, op.root(i), op.comm),
        "MPI_Gatherv");
  }
  std::string check(const Op &op, std::int64_t i) const override {
    if (op.rank != op.root(i))
      return {};
    for (int p = 0; p < op.np; ++p)
      if (auto e = expect_bytes(op.buf->recv.at(i) + p * op.x, p, 0, op.x); !e.empty())
        return "block " + std::to_string(p) + ": " + e;
    return {};
  }

private:
  std::vector<int> counts_, displs_;
};

} // namespace

std::unique_ptr<Kernel> make_gatherv() { return std::make_unique<Gatherv>(); }

} // namespace imb
