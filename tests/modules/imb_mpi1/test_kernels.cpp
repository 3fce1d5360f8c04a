// Every kernel of the IMB 3.2 User Guide §3.3 run directly on the world's ranks: after each
// operation (every root of the rotation) the receive buffers hold what the senders sent, and
// reductions hold the sum; a corrupted buffer is caught.
#include <catch2/catch.hpp>

#include <cstdint>

#include "mpi1_kernels.hpp"
#include "mpi_test.hpp"

using namespace imb;
using pio::test::all_ranks;

namespace {

/// Runs operations 0 .. np (every root once) of `kernel` at X = x on the first np ranks and
/// returns, on every rank, whether all checks passed.
bool moves_data(Kernel &kernel, std::int64_t x, bool split = true,
                Placement at = Placement::Malloc) {
  const Traits &t = kernel.traits();
  const int world = pio::test::size(), me = pio::test::rank();
  const int np = t.kind == Kind::Single ? 2 : world;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, me < np ? 0 : MPI_UNDEFINED, me, &comm);
  bool ok = true;
  if (comm != MPI_COMM_NULL) {
    Buffers buf;
    Op op;
    op.comm = comm;
    op.rank = me;
    op.np = np;
    op.x = x;
    op.split_scatter = split;
    const Lengths len = kernel.lengths(x, np);
    buf.send = Region(len.send, CacheLayout{}, at);
    buf.recv = Region(len.recv, CacheLayout{}, at);
    if (at == Placement::Page && (reinterpret_cast<std::uintptr_t>(buf.send.at(0)) % 4096 != 0 ||
                                  reinterpret_cast<std::uintptr_t>(buf.recv.at(0)) % 4096 != 0)) {
      UNSCOPED_INFO(t.name << ": BufferAlignment page gave a buffer off a page boundary");
      ok = false;
    }
    buf.send.fill(me, t.floats());
    op.buf = &buf;
    kernel.prepare(op);
    for (std::int64_t i = 0; i <= np; ++i) {
      kernel.run(op, i);
      const std::string e = kernel.check(op, i);
      if (!e.empty()) {
        UNSCOPED_INFO(t.name << " X=" << x << " i=" << i << " rank " << me << ": " << e);
        ok = false;
      }
    }
    MPI_Comm_free(&comm);
  }
  return ok;
}

} // namespace

// 4 ranks: the roots rotate over 4 ranks, Reduce_scatter splits unevenly (3 3 2 2), gather, scatter
// and all-to-all place 4 ranks' blocks.
TEST_CASE("each kernel delivers what the senders sent, reductions the sum", "[imb][4ranks]") {
  std::vector<std::unique_ptr<Kernel>> kernels;
  for (auto make :
       {make_pingpong, make_pingping, make_sendrecv, make_exchange, make_bcast, make_allgather,
        make_allgatherv, make_scatter, make_scatterv, make_gather, make_gatherv, make_alltoall,
        make_alltoallv, make_reduce, make_reduce_scatter, make_allreduce, make_barrier})
    kernels.push_back(make());
  for (auto &k : kernels) {
    if (k->traits().kind == Kind::Single && pio::test::size() < 2)
      continue;
    for (std::int64_t x : {0, 4, 40, 4096, 65540}) {
      INFO(k->traits().name << " X = " << x);
      REQUIRE(all_ranks(moves_data(*k, x)));
    }
  }
  // BufferAlignment page: the same transfers from page-aligned buffers.
  for (auto &k : kernels)
    if (k->traits().kind != Kind::Single || pio::test::size() >= 2) {
      INFO(k->traits().name << " page-aligned");
      REQUIRE(all_ranks(moves_data(*k, 65540, true, Placement::Page)));
    }
  // IMB 2019+'s Reduce_scatter: every rank gets L sums of an np L vector.
  auto rs = make_reduce_scatter();
  REQUIRE(all_ranks(moves_data(*rs, 4096, false)));
}

TEST_CASE("the checks catch a corrupted receive buffer", "[imb]") {
  const int np = pio::test::size(), me = pio::test::rank();
  for (auto make : {make_allreduce, make_alltoall, make_allgather}) {
    auto k = make();
    Buffers buf;
    Op op;
    op.comm = MPI_COMM_WORLD;
    op.rank = me;
    op.np = np;
    op.x = 64;
    const Lengths len = k->lengths(64, np);
    buf.send = Region(len.send, CacheLayout{});
    buf.recv = Region(len.recv, CacheLayout{});
    buf.send.fill(me, k->traits().floats());
    op.buf = &buf;
    k->prepare(op);
    k->run(op, 0);
    REQUIRE(all_ranks(k->check(op, 0).empty()));
    buf.recv.at(0)[8] ^= 0x40;
    REQUIRE(all_ranks(!k->check(op, 0).empty()));
  }
}

TEST_CASE("off_cache buffers cycle message positions and keep each position's data", "[imb]") {
  Region r(100, cache_layout(100, 4096, 64, 1000));
  r.fill(3, false);
  CHECK(r.at(1) - r.at(0) == 192);
  CHECK(r.at(0) == r.at((2 * 4096 + 191) / 192)); // wraps after the slots
  for (std::int64_t i = 0; i < 50; ++i)
    CHECK(expect_bytes(r.at(i), 3, 0, 100).empty());
}
