// What a later block of a FilesFrom chain finds of a tree an earlier block made, at 1, 2 and 4
// ranks: the tree exists for all ranks or none (else an agreed error), each rank's item count
// is found exactly by the binary search for every count 0..Items, and ranks holding different
// counts stop with the same error naming the range and the tree.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "backends.hpp"
#include "directories.hpp"
#include "inherited_tree.hpp"
#include "item_ops.hpp"
#include "mpi_test.hpp"
#include "tree.hpp"
#include "tree_on_disk.hpp"

using pio::test::all_ranks;

namespace {

pio::metadata::Geometry geometry(const std::string &top, pio::metadata::Layout layout) {
  return pio::test::geometry_of(top, layout, 23, 1, 2);
}

/// Makes this rank's directories of g (rank 0 alone the shared ones) and waits for all ranks.
void make_tree(const pio::metadata::Geometry &g) {
  std::string error;
  if (g.layout == pio::metadata::Layout::Easy || pio::test::rank() == 0)
    error = pio::metadata::make_dirs(pio::test::posix(), g.directories(pio::test::rank()));
  REQUIRE(all_ranks(error.empty()));
}

/// Creates this rank's items [from, to) in g.
void create_items(const pio::metadata::Geometry &g, std::int64_t from, std::int64_t to) {
  pio::metadata::ItemPaths paths(g, pio::test::rank());
  for (std::int64_t i = from; i < to; ++i)
    pio::metadata::create_item(pio::test::posix(), paths.path(i), "", 0);
}

/// The message of the pio::Error f throws ("" if none).
template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const pio::Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("count_items finds every count 0..Items of a rank's items, easy and hard") {
  pio::test::TempDir dir;
  for (const auto layout : {pio::metadata::Layout::Easy, pio::metadata::Layout::Hard}) {
    const auto g = geometry(dir.file(pio::metadata::layout_name(layout)), layout);
    if (pio::test::rank() == 0)
      ::mkdir(g.top.c_str(), 0755);
    MPI_Barrier(MPI_COMM_WORLD);
    make_tree(g);
    bool right = true;
    for (std::int64_t c = 0; c <= g.items; ++c) {
      right = right && pio::metadata::count_items(pio::test::posix(), g, pio::test::rank()) == c;
      if (c < g.items)
        create_items(g, c, c + 1);
    }
    INFO(pio::metadata::layout_name(layout) << " tree");
    REQUIRE(all_ranks(right));
  }
}

TEST_CASE("agreed_item_count: the same count on every rank, else the range and tree named") {
  pio::test::TempDir dir;
  const auto g = geometry(dir.file("md"), pio::metadata::Layout::Hard);
  if (pio::test::rank() == 0)
    ::mkdir(g.top.c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  make_tree(g);
  create_items(g, 0, 9);
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(all_ranks(pio::metadata::agreed_item_count(MPI_COMM_WORLD, pio::test::posix(), g) == 9));
  // The last rank loses its last item (a create that stopped one short there).
  const int last = pio::test::size() - 1;
  if (pio::test::rank() == last) {
    pio::metadata::ItemPaths paths(g, last);
    pio::metadata::remove_item(pio::test::posix(), paths.path(8));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::int64_t count = -1;
  const std::string error = error_of(
      [&] { count = pio::metadata::agreed_item_count(MPI_COMM_WORLD, pio::test::posix(), g); });
  INFO(error);
  if (pio::test::size() == 1)
    REQUIRE(all_ranks(error.empty() && count == 8));
  else
    REQUIRE(all_ranks(error == "the hard tree under " + g.top +
                                   " holds 8..9 items per rank, different on different ranks"));
}

TEST_CASE("agreed_tree_exists: no tree, a whole tree, a tree of some ranks only") {
  pio::test::TempDir dir;
  const auto g = geometry(dir.file("md"), pio::metadata::Layout::Easy);
  if (pio::test::rank() == 0)
    ::mkdir(g.top.c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(all_ranks(!pio::metadata::agreed_tree_exists(MPI_COMM_WORLD, pio::test::posix(), g)));
  if (pio::test::rank() == 0)
    ::mkdir(g.base(0).c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  if (pio::test::size() == 1) {
    REQUIRE(all_ranks(pio::metadata::agreed_tree_exists(MPI_COMM_WORLD, pio::test::posix(), g)));
  } else {
    const std::string error =
        error_of([&] { pio::metadata::agreed_tree_exists(MPI_COMM_WORLD, pio::test::posix(), g); });
    INFO(error);
    REQUIRE(all_ranks(error == "the easy tree under " + g.top + " exists for some ranks only"));
  }
  if (pio::test::rank() != 0)
    ::mkdir(g.base(pio::test::rank()).c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(all_ranks(pio::metadata::agreed_tree_exists(MPI_COMM_WORLD, pio::test::posix(), g)));
}
