// IO500's find (pfind) compares names from the directory entries and stats only the files whose
// name matches, and gives each directory to one rank: counted here with lstat and opendir
// interposed in the program (find_walk and find_shared are linked in).
#include <catch2/catch.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <mpi.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "backends.hpp"
#include "directories.hpp"
#include "find_shared.hpp"
#include "find_walk.hpp"
#include "item_ops.hpp"
#include "mpi_test.hpp"
#include "tree.hpp"
#include "tree_on_disk.hpp"

using pio::test::all_ranks;

namespace {

std::vector<std::string> &stat_log() {
  static std::vector<std::string> l;
  return l;
}

std::vector<std::string> &opendir_log() {
  static std::vector<std::string> l;
  return l;
}

void file(const std::string &path, std::size_t size) {
  std::ofstream(path) << std::string(size, 'x');
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// This rank's counts summed over the ranks.
pio::metadata::FindCount sum(const pio::metadata::FindCount &c) {
  std::int64_t mine[2] = {c.scanned, c.matched}, all[2] = {0, 0};
  MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return {all[0], all[1]};
}

/// One tree of the metadata module's geometry made on disk (every rank its items), and what a
/// find over it must count.
struct TreeOnDisk {
  std::vector<std::string> dirs; ///< every directory below top, over all ranks
  std::int64_t files = 0;        ///< every item, over all ranks
  std::int64_t matching = 0;     ///< items whose name matches the glob and size the rule
};

TreeOnDisk make_tree(const std::string &top, pio::metadata::Layout layout, std::int64_t items,
                     std::int64_t size, const pio::metadata::FindRule &rule) {
  const pio::metadata::Geometry g = pio::test::geometry_of(top, layout, items, 2, 3);
  const int n = pio::test::size(), me = pio::test::rank();
  std::string error;
  if (layout == pio::metadata::Layout::Easy || me == 0)
    error = pio::metadata::make_dirs(pio::test::posix(), g.directories(me));
  pio::metadata::raise_agreed(MPI_COMM_WORLD, error);
  const std::string data(static_cast<std::size_t>(size), 'd');
  pio::metadata::ItemPaths paths(g, me);
  for (std::int64_t i = 0; i < items; ++i)
    pio::metadata::create_item(pio::test::posix(), paths.path(i), data.data(), size);
  MPI_Barrier(MPI_COMM_WORLD);
  TreeOnDisk t;
  for (int r = 0; r < (layout == pio::metadata::Layout::Easy ? n : 1); ++r)
    for (const auto &d : g.directories(r))
      t.dirs.push_back(d);
  t.files = items * n;
  for (int r = 0; r < n; ++r)
    for (std::int64_t i = 0; i < items; ++i)
      if (::fnmatch(rule.name_glob.c_str(), pio::metadata::Geometry::item_name(r, i).c_str(), 0) ==
              0 &&
          (rule.size < 0 || rule.size == size))
        ++t.matching;
  return t;
}

} // namespace

extern "C" int lstat(const char *path, struct stat *st) {
  stat_log().emplace_back(path);
  return static_cast<int>(::syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW));
}

extern "C" DIR *opendir(const char *path) {
  using Opendir = DIR *(*)(const char *);
  static const auto real = reinterpret_cast<Opendir>(::dlsym(RTLD_NEXT, "opendir"));
  opendir_log().emplace_back(path);
  return real(path);
}

TEST_CASE("find stats only the files whose name matches, and counts every entry", "[metadata]") {
  pio::test::TempDir dir;
  // Each rank its own tree: the walk of one rank alone.
  const std::string top = dir.file("tree" + std::to_string(pio::test::rank()));
  ::mkdir(top.c_str(), 0700);
  ::mkdir((top + "/d01").c_str(), 0700); // a directory whose name matches: not a file
  file(top + "/a01", 3901);
  file(top + "/a02", 3901); // name does not match: never stat-ed
  file(top + "/b01", 10);   // name matches, size does not
  file(top + "/d01/x01", 3901);
  file(top + "/d01/y", 0);
  REQUIRE(all_ranks(::symlink("a01", (top + "/l01").c_str()) == 0)); // a name match, not a file

  pio::metadata::FindRule rule;
  rule.name_glob = "*01*";
  rule.size = 3901;
  stat_log().clear();
  opendir_log().clear();
  const auto count = pio::metadata::find_walk(pio::test::posix(), top, rule);
  CHECK(count.scanned == 7);
  CHECK(count.matched == 2); // a01, d01/x01
  // Directories are read in the order the file system gives, so the order of the stats is not
  // fixed; which files are stat-ed is.
  CHECK(sorted(stat_log()) ==
        std::vector<std::string>{top + "/a01", top + "/b01", top + "/d01/x01"});
  CHECK(opendir_log() == std::vector<std::string>{top, top + "/d01"}); // each once, top first
  bool ok = count.scanned == 7 && count.matched == 2 && stat_log().size() == 3;

  // Without a size rule a matching name is enough: no stat at all.
  rule.size = -1;
  stat_log().clear();
  const auto any = pio::metadata::find_walk(pio::test::posix(), top, rule);
  CHECK(any.matched == 3); // a01, b01, d01/x01
  CHECK(stat_log().empty());
  ok = ok && any.matched == 3 && stat_log().empty();

  // One directory: its entries counted, its subdirectories handed back, nothing below read.
  std::vector<std::string> subdirs;
  opendir_log().clear();
  const auto one = pio::metadata::find_in_dir(pio::test::posix(), top, rule, subdirs);
  CHECK(one.scanned == 5);
  CHECK(subdirs == std::vector<std::string>{top + "/d01"});
  CHECK(opendir_log() == std::vector<std::string>{top});
  ok = ok && one.scanned == 5 && subdirs.size() == 1;
  REQUIRE(all_ranks(ok));
}

// 4 ranks: ranks 2 and 3 give 2 and 3 paths: the only run where each rank's place in the gathered
// list follows others' lists of several lengths.
TEST_CASE("gather_paths hands every rank all ranks' paths in rank order", "[metadata][4ranks]") {
  const int n = pio::test::size(), me = pio::test::rank();
  // Rank r gives r paths (rank 0 none), of different lengths.
  std::vector<std::string> mine;
  for (int k = 0; k < me; ++k)
    mine.push_back("/r" + std::to_string(me) + "/" + std::string(static_cast<size_t>(k + 1), 'x'));
  const auto all = pio::metadata::gather_paths(MPI_COMM_WORLD, mine);
  std::vector<std::string> want;
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < r; ++k)
      want.push_back("/r" + std::to_string(r) + "/" + std::string(static_cast<size_t>(k + 1), 'x'));
  CHECK(all == want);
  REQUIRE(all_ranks(all == want));
  // Nothing anywhere: an empty list everywhere (the end of a walk).
  REQUIRE(all_ranks(pio::metadata::gather_paths(MPI_COMM_WORLD, {}).empty()));
}

// 4 ranks: the directories are shared among 4 readers.
TEST_CASE("the shared find reads each directory on one rank and counts exactly, easy, hard "
          "and both trees",
          "[metadata][4ranks]") {
  using pio::metadata::Layout;
  pio::test::TempDir dir;
  pio::metadata::FindRule rule;
  rule.name_glob = "*1*";
  rule.size = 3901;
  struct Case {
    std::string name;
    std::vector<std::pair<Layout, std::int64_t>> trees; // layout, file size
  };
  for (const Case &c : std::vector<Case>{{"easy", {{Layout::Easy, 3901}}},
                                         {"hard", {{Layout::Hard, 3901}}},
                                         {"both", {{Layout::Easy, 0}, {Layout::Hard, 3901}}}}) {
    INFO("tree " << c.name << " at " << pio::test::size() << " ranks");
    const std::string top = dir.file(c.name);
    if (pio::test::rank() == 0)
      ::mkdir(top.c_str(), 0700);
    MPI_Barrier(MPI_COMM_WORLD);
    std::vector<std::string> dirs{top};
    std::int64_t files = 0, matching = 0;
    for (const auto &[layout, size] : c.trees) {
      const auto t = make_tree(top, layout, 29, size, rule);
      dirs.insert(dirs.end(), t.dirs.begin(), t.dirs.end());
      files += t.files;
      matching += t.matching;
    }
    const auto want_scanned = files + static_cast<std::int64_t>(dirs.size()) - 1; // not top
    CHECK(matching > 0);

    opendir_log().clear();
    const auto total =
        sum(pio::metadata::find_walk_shared(pio::test::posix(), top, rule, MPI_COMM_WORLD));
    const auto read_here = opendir_log();
    CHECK(total.scanned == want_scanned);
    CHECK(total.matched == matching);
    // Every directory read exactly once over all ranks: the gathered logs are the directories.
    const auto read_anywhere = pio::metadata::gather_paths(MPI_COMM_WORLD, read_here);
    CHECK(sorted(read_anywhere) == sorted(dirs));
    std::int64_t reads = static_cast<std::int64_t>(read_here.size()), all_reads = 0;
    MPI_Allreduce(&reads, &all_reads, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(all_reads == static_cast<std::int64_t>(dirs.size()));
    bool ok = total.scanned == want_scanned && total.matched == matching &&
              sorted(read_anywhere) == sorted(dirs);

    // One rank alone (FindRanks one) finds the same.
    if (pio::test::rank() == 0) {
      const auto alone = pio::metadata::find_walk(pio::test::posix(), top, rule);
      CHECK(alone.scanned == want_scanned);
      CHECK(alone.matched == matching);
      ok = ok && alone.scanned == want_scanned && alone.matched == matching;
    }
    REQUIRE(all_ranks(ok));
  }
}

TEST_CASE("a directory the shared find cannot read fails every rank with its name", "[metadata]") {
  pio::test::TempDir dir;
  const std::string gone = dir.file("not-there");
  std::string what;
  try {
    pio::metadata::find_walk_shared(pio::test::posix(), gone, {}, MPI_COMM_WORLD);
  } catch (const pio::Error &e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("opendir " + gone + ": No such file or directory") != std::string::npos);
  REQUIRE(all_ranks(what.find("opendir " + gone) != std::string::npos));
}
