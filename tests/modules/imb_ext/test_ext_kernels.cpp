// The IMB-EXT kernels (IMB 3.2 User Guide §4.2.3) driven directly, one sample of n transfers:
// puts land in the target's window at the right section (disjoint in aggregate mode), gets return
// the target's data from the right section, Accumulate leaves the sum on the root, and Window
// leaves no window behind.
#include <catch2/catch.hpp>

#include <cstring>

#include "mpi_test.hpp"
#include "one_sided.hpp"

using namespace imb;
using namespace imb::ext;
using pio::test::all_ranks;

namespace {

/// Active processes of a kernel: 2 for single transfers, all otherwise.
int active(const Kernel &k) { return k.traits().kind == Kind::Single ? 2 : pio::test::size(); }

/// Runs `check_fn(op, kernel)` after one sample of n operations of `kernel` at X = x on its
/// active processes; every receive position is its own (off_cache layout with n slots), so each
/// transfer's data stays visible. Returns the verdict on every rank.
template <class F>
bool after_sample(OneSided &kernel, const std::string &mode, std::int64_t x, std::int64_t n,
                  F check_fn, const std::string &sections = "disjoint") {
  const int me = pio::test::rank(), np = active(kernel);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, me < np ? 0 : MPI_UNDEFINED, me, &comm);
  bool ok = true;
  if (comm != MPI_COMM_NULL) {
    Config cfg;
    kernel.configure(pio::Settings({{"Mode", {mode}}, {"Sections", {sections}}}), cfg);
    Buffers buf;
    const CacheLayout layout{x + 64, n};
    buf.send = Region(x, layout);
    buf.recv = Region(x, layout);
    buf.send.fill(me, kernel.traits().floats());
    Op op;
    op.comm = comm;
    op.rank = me;
    op.np = np;
    op.x = x;
    op.buf = &buf;
    op.n_max = n;
    kernel.prepare(op);
    kernel.sample(op, n);
    ok = check_fn(op, kernel);
    kernel.release(op);
    MPI_Comm_free(&comm);
  }
  return ok;
}

bool same_bytes(const char *got, int sender, std::int64_t from, std::int64_t x) {
  const std::string e = expect_bytes(got, sender, from, x);
  if (!e.empty())
    UNSCOPED_INFO(e);
  return e.empty();
}

} // namespace

TEST_CASE("puts land in the target's window, section i for transfer i when aggregated",
          "[imb_ext]") {
  if (pio::test::size() < 2)
    return;
  const std::int64_t n = 5;
  for (auto make : {make_unidir_put, make_bidir_put})
    for (const std::string mode : {"aggregate", "non-aggregate"})
      for (std::int64_t x : {1, 1000}) {
        auto k = make();
        const bool bidir = std::string(k->traits().name) == "Bidir_Put";
        INFO(k->traits().name << " " << mode << " X = " << x);
        REQUIRE(all_ranks(after_sample(*k, mode, x, n, [&](const Op &op, OneSided &ks) {
          const auto &w = ks.window_memory();
          const bool target = bidir || op.rank == 1;
          const std::int64_t sections = mode == "aggregate" ? n : 1;
          if (static_cast<std::int64_t>(w.size()) != sections * x)
            return false;
          for (std::int64_t s = 0; s < sections; ++s) {
            const char *sec = w.data() + s * x;
            if (target ? !same_bytes(sec, 1 - op.rank, 0, x)
                       : std::any_of(sec, sec + x, [](char c) { return c != 0; }))
              return false;
          }
          return true;
        })));
      }
}

TEST_CASE("gets return the target's data from section i for transfer i when aggregated",
          "[imb_ext]") {
  if (pio::test::size() < 2)
    return;
  const std::int64_t n = 4;
  for (auto make : {make_unidir_get, make_bidir_get})
    for (const std::string mode : {"aggregate", "non-aggregate"}) {
      auto k = make();
      const bool bidir = std::string(k->traits().name) == "Bidir_Get";
      const std::int64_t x = 300;
      INFO(k->traits().name << " " << mode);
      REQUIRE(all_ranks(after_sample(*k, mode, x, n, [&](const Op &op, OneSided &) {
        if (!bidir && op.rank == 0) // rank 0 only exposes its window
          return std::all_of(op.buf->recv.at(0), op.buf->recv.at(0) + x,
                             [](char c) { return c == 0; });
        for (std::int64_t i = 0; i < n; ++i) {
          const std::int64_t from = mode == "aggregate" ? i * x : 0;
          if (!same_bytes(op.buf->recv.at(i), 1 - op.rank, from, x))
            return false;
        }
        return true;
      })));
    }
}

TEST_CASE("Sections zero: every aggregated transfer at displacement 0, as IMB 2019+ places them",
          "[imb_ext]") {
  if (pio::test::size() < 2)
    return;
  const std::int64_t n = 4, x = 300;
  auto get = make_unidir_get();
  REQUIRE(all_ranks(after_sample(
      *get, "aggregate", x, n,
      [&](const Op &op, OneSided &ks) {
        if (static_cast<std::int64_t>(ks.window_memory().size()) != x ||
            ks.params().at("sections") != "zero")
          return false;
        for (std::int64_t i = 0; op.rank == 1 && i < n; ++i)
          if (!same_bytes(op.buf->recv.at(i), 0, 0, x))
            return false;
        return true;
      },
      "zero")));
  auto put = make_bidir_put();
  REQUIRE(all_ranks(after_sample(
      *put, "aggregate", x, n,
      [&](const Op &op, OneSided &ks) {
        return static_cast<std::int64_t>(ks.window_memory().size()) == x &&
               same_bytes(ks.window_memory().data(), 1 - op.rank, 0, x);
      },
      "zero")));
}

TEST_CASE("Accumulate leaves the sum over the ranks in the root's window", "[imb_ext]") {
  const std::int64_t n = 3, l = 100, x = l * 4;
  for (const std::string mode : {"aggregate", "non-aggregate"}) {
    auto k = make_accumulate();
    INFO(mode);
    REQUIRE(all_ranks(after_sample(*k, mode, x, n, [&](const Op &op, OneSided &ks) {
      const auto &w = ks.window_memory();
      if (op.rank != 0)
        return w.empty();
      // Aggregate: n disjoint sections, each reached once; non-aggregate: section 0, n times.
      const std::int64_t sections = mode == "aggregate" ? n : 1;
      const float times = mode == "aggregate" ? 1.0f : static_cast<float>(n);
      if (static_cast<std::int64_t>(w.size()) != sections * x)
        return false;
      const float *f = reinterpret_cast<const float *>(w.data());
      for (std::int64_t s = 0; s < sections; ++s)
        for (std::int64_t e = 0; e < l; ++e) {
          float sum = 0;
          for (int r = 0; r < op.np; ++r)
            sum += float_of(r, e);
          if (f[s * l + e] != times * sum)
            return false;
        }
      return ks.check(op, n - 1).empty();
    })));
  }
}

TEST_CASE("Window creates, uses and frees a window in every operation", "[imb_ext]") {
  auto k = make_window();
  for (std::int64_t x : {0, 4, 4096})
    REQUIRE(all_ranks(after_sample(*k, "", x, 3, [&](const Op &op, OneSided &ks) {
      // check: no window left open, and the 1-byte put into the own window landed.
      const std::string e = ks.check(op, 2);
      if (!e.empty())
        UNSCOPED_INFO(e);
      return e.empty() && ks.window_memory().empty();
    })));
}

TEST_CASE("the checks catch a put that did not land", "[imb_ext]") {
  if (pio::test::size() < 2)
    return;
  auto k = make_unidir_put();
  REQUIRE(all_ranks(after_sample(*k, "aggregate", 64, 2, [&](const Op &op, OneSided &ks) {
    if (op.rank != 1)
      return true;
    auto &w = const_cast<std::vector<char> &>(ks.window_memory());
    w[64 + 3] ^= 1; // section 1
    return !ks.check(op, 1).empty();
  })));
}
