// Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get (IMB 3.2 User Guide §4.2.3.1-§4.2.3.4): the
// one-sided equivalents of PingPong and PingPing on 2 active processes. The target exposes a
// window; the origin moves X bytes of MPI_BYTE with MPI_Put (into the target's window) or MPI_Get
// (out of it). Unidir: rank 0 puts into rank 1, rank 1 gets from rank 0 (IMB's pair roles);
// Bidir: both ranks do it at once. Transfer i goes to section i of the window in aggregate mode
// (disjoint, §4.2.2.2.2), to section 0 otherwise. Completion: MPI_Win_fence, after every transfer
// (non-aggregate) or after all M = n_sample of them (aggregate). t = t(M) / M, throughput X / t.
#include <cstring>

#include "one_sided.hpp"

namespace imb::ext {
namespace {

enum class Access { Put, Get };

class Transfer : public OneSided {
public:
  Transfer(const Traits &t, Access access, bool bidir)
      : OneSided(Mode::Aggregate, true), traits_(t), access_(access), bidir_(bidir) {}
  const Traits &traits() const override { return traits_; }

  void prepare(const Op &op) override {
    // Put: the window is where the data lands; Get: it holds the target's data, section s
    // being the target's bytes s X .. (s + 1) X - 1.
    open_window(op, op.x, true, 1);
    if (access_ == Access::Get)
      for (size_t k = 0; k < memory_.size(); ++k)
        memory_[k] = static_cast<char>(byte_of(op.rank, static_cast<std::int64_t>(k)));
  }

  void run(const Op &op, std::int64_t i) override {
    transfer(op, i);
    fence();
  }

  void sample(const Op &op, std::int64_t n) override {
    if (mode() == Mode::NonAggregate)
      return OneSided::sample(op, n);
    for (std::int64_t i = 0; i < n; ++i)
      transfer(op, i);
    fence();
  }

  std::string check(const Op &op, std::int64_t last) const override {
    const int peer = 1 - op.rank;
    // Puts: every section the sample reached holds the origin's bytes. Gets: the receive
    // position of the last transfer holds the target's section (earlier transfers may share it).
    const std::int64_t first = mode() == Mode::Aggregate && access_ == Access::Put ? 0 : last;
    for (std::int64_t i = first; i <= last; ++i) {
      std::string e;
      if (access_ == Access::Put && (bidir_ || op.rank == 1))
        e = expect_bytes(memory_.data() + section(i) * op.x, peer, 0, op.x);
      if (access_ == Access::Get && origin(op))
        e = expect_bytes(op.buf->recv.at(i), peer, section(i) * op.x, op.x);
      if (!e.empty())
        return "transfer " + std::to_string(i) + ": " + e;
    }
    return "";
  }

  std::int64_t bytes_sent(const Op &op) const override { return origin(op) ? op.x : 0; }

private:
  bool origin(const Op &op) const { return bidir_ || op.rank == (access_ == Access::Put ? 0 : 1); }
  /// The elementary transfer i (§5.2.8: the pure MPI_Put / MPI_Get, nothing else).
  void transfer(const Op &op, std::int64_t i) const {
    if (!origin(op))
      return;
    const int peer = 1 - op.rank, n = static_cast<int>(op.x);
    const MPI_Aint disp = static_cast<MPI_Aint>(section(i) * op.x);
    if (access_ == Access::Put)
      pio::mpi_check(MPI_Put(op.buf->send.at(i), n, MPI_BYTE, peer, disp, n, MPI_BYTE, win_.get()),
                     "MPI_Put");
    else
      pio::mpi_check(MPI_Get(op.buf->recv.at(i), n, MPI_BYTE, peer, disp, n, MPI_BYTE, win_.get()),
                     "MPI_Get");
  }

  Traits traits_;
  Access access_;
  bool bidir_;
};

Traits single(const char *name, const char *section) { return Traits(name, section, Kind::Single); }

} // namespace

std::unique_ptr<OneSided> make_unidir_put() {
  return std::make_unique<Transfer>(single("Unidir_Put", "§4.2.3.1"), Access::Put, false);
}
std::unique_ptr<OneSided> make_unidir_get() {
  return std::make_unique<Transfer>(single("Unidir_Get", "§4.2.3.2"), Access::Get, false);
}
std::unique_ptr<OneSided> make_bidir_put() {
  return std::make_unique<Transfer>(single("Bidir_Put", "§4.2.3.3"), Access::Put, true);
}
std::unique_ptr<OneSided> make_bidir_get() {
  return std::make_unique<Transfer>(single("Bidir_Get", "§4.2.3.4"), Access::Get, true);
}

} // namespace imb::ext
