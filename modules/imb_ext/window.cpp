// Window (IMB 3.2 User Guide §4.2.3.6, §5.2.8): the overhead of MPI_Win_create / MPI_Win_fence /
// MPI_Win_free on a window of X bytes over the active processes. The negligible non-trivial
// action inside the window: each process puts 1 byte into its own window (when X > 0), between
// the fence that opens the access epoch and the one that closes it. Bare time, no throughput;
// n_sample from MSGS_NONAGGR (the benchmark has no aggregate mode); lengths in whole floats as
// IMB's (it counts Window among the reductions).
#include "one_sided.hpp"

namespace imb::ext {
namespace {

class Window : public OneSided {
public:
  Window() : OneSided(Mode::NonAggregate, false) {}
  const Traits &traits() const override {
    static const Traits t =
        Traits("Window", "§4.2.3.6", Kind::Collective).with_data(Data::FloatSum);
    return t;
  }

  void run(const Op &op, std::int64_t) override {
    MPI_Win w = MPI_WIN_NULL;
    pio::mpi_check(MPI_Win_create(op.buf->recv.at(0), static_cast<MPI_Aint>(op.x), 1, MPI_INFO_NULL,
                                  op.comm, &w),
                   "MPI_Win_create");
    ++open_;
    pio::mpi_check(MPI_Win_fence(0, w), "MPI_Win_fence");
    if (op.x > 0)
      pio::mpi_check(MPI_Put(op.buf->send.at(0), 1, MPI_BYTE, op.rank, 0, 1, MPI_BYTE, w),
                     "MPI_Put");
    pio::mpi_check(MPI_Win_fence(0, w), "MPI_Win_fence");
    pio::mpi_check(MPI_Win_free(&w), "MPI_Win_free");
    --open_;
  }

  /// The put landed, and no window is left open.
  std::string check(const Op &op, std::int64_t) const override {
    if (open_ != 0)
      return std::to_string(open_) + " window(s) left open";
    if (op.x > 0 && op.buf->recv.at(0)[0] != op.buf->send.at(0)[0])
      return "the 1-byte MPI_Put into the own window did not land";
    return "";
  }

  std::int64_t bytes_sent(const Op &op) const override { return op.x > 0 ? 1 : 0; }

  /// Windows created and not yet freed (0 after every operation).
  int open() const { return open_; }

private:
  int open_ = 0;
};

} // namespace

std::unique_ptr<OneSided> make_window() { return std::make_unique<Window>(); }

} // namespace imb::ext
