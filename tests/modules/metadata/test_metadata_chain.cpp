// The metadata module's phases as separate blocks chained by FilesFrom, at 1, 2 and 4 ranks:
// IO500's mdtest order as eight blocks counts every phase exactly, leaves the tree the geometry
// says after the two creates and nothing after the chain, and passes Verify timed on the hard
// read; a stonewalled create's count is discovered by the later blocks; ranks holding different
// counts stop with the agreed error; a tree no earlier block made is an error.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <map>
#include <string>
#include <vector>

#include "item_ops.hpp"
#include "mpi_test.hpp"
#include "syncfs_log.hpp"
#include "tree.hpp"
#include "tree_on_disk.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

/// One block per phase, each but the first taking the files of the one before (FilesFrom);
/// `extra` maps a phase to directives of its block only.
std::string chain(const std::string &top, const std::string &common,
                  const std::vector<std::string> &phases,
                  const std::map<std::string, std::string> &extra = {}) {
  std::string text;
  for (size_t k = 0; k < phases.size(); ++k) {
    text += "<ap_module>\nModuleName metadata\nLabel md-" + phases[k] + "\n";
    if (k > 0)
      text += "FilesFrom md-" + phases[k - 1] + "\n";
    text += "TestFile " + top + "\n" + common + "Phases " + phases[k] + "\n";
    if (const auto it = extra.find(phases[k]); it != extra.end())
      text += it->second;
    text += "</ap_module>\n";
  }
  return text;
}

/// The ops of block k's only test, first repetition.
long ops(const pio::test::Ran &ran, size_t k) {
  return ran.results["modules"][k]["tests"][0]["reps"][0]["ops"].get<long>();
}

/// The chain configs' trees: Depth 1, Branching 2.
pio::metadata::Geometry geometry(const std::string &top, pio::metadata::Layout layout,
                                 std::int64_t items) {
  return pio::test::geometry_of(top, layout, items, 1, 2);
}

} // namespace

TEST_CASE("IO500's mdtest order as eight chained blocks: exact counts, the tree after the "
          "creates, Verify timed, nothing left") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("sentinel"), "not ours\n");
  const std::string top = dir.file("md");
  const std::vector<std::string> phases = {"easy-create", "hard-create", "find",
                                           "easy-stat",   "hard-stat",   "easy-remove",
                                           "hard-read",   "hard-remove"};
  // The tree as the find block (the first after the creates) finds it, seen in its untimed
  // syncfs (Writeback on) before the walk.
  std::map<std::string, long> after_creates;
  bool seen = false;
  pio::test::set_syncfs_hook([&] {
    if (!seen && pio::test::rank() == 0)
      after_creates = pio::test::tree_of(top);
    seen = true;
  });
  const auto ran = pio::test::run_config(
      dir, "io500",
      chain(top,
            "Mode both\nItems 13\nHardItems 11\nFileSize 0\nHardFileSize 3901\nDepth 1\n"
            "Branching 2\nFindName *1*\nFindSize 3901\nWriteback on\n",
            phases, {{"hard-read", "Verify timed\n"}}));
  pio::test::set_syncfs_hook({});
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(seen));
  REQUIRE(on_root([&] {
    const int n = pio::test::size();
    const auto &modules = ran.results["modules"];
    INFO(ran.err << modules.dump());
    CHECK(modules.size() == 8);
    const long easy = 13L * n, hard = 11L * n, dirs = 3L * n + 3L;
    const long want[] = {easy, hard, easy + hard + dirs, easy, hard, easy, hard, hard};
    bool counts = modules.size() == 8;
    for (size_t k = 0; counts && k < 8; ++k) {
      CHECK(ops(ran, k) == want[k]);
      counts = counts && ops(ran, k) == want[k];
    }
    CHECK(modules[6]["verify"] == "timed");
    CHECK(modules[6]["tests"][0]["params"]["phase"] == "read");
    auto want_tree =
        pio::test::expected_tree(geometry(top, pio::metadata::Layout::Easy, 13), n, 0, 13);
    for (const auto &e :
         pio::test::expected_tree(geometry(top, pio::metadata::Layout::Hard, 11), n, 3901, 11))
      want_tree.insert(e);
    CHECK(after_creates == want_tree);
    CHECK(!pio::test::exists(top));
    CHECK(!pio::test::exists(top + ".pio-owner"));
    CHECK(pio::test::read_bytes(dir.file("sentinel")).size() == 9);
    return counts && after_creates == want_tree && !pio::test::exists(top);
  }));
}

TEST_CASE("a stonewalled create's count is discovered by the stat and remove blocks after it") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  // 100000 empty items per rank cannot be made in 0.05 s: the create stops early.
  const auto ran = pio::test::run_config(
      dir, "sw",
      chain(top, "Mode hard\nItems 100000\nDepth 1\nBranching 2\n", {"create", "stat", "remove"},
            {{"create", "StonewallTime 0.05\n"}}));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const int n = pio::test::size();
    INFO(ran.err << ran.results["modules"].dump());
    const long created = ops(ran, 0);
    CHECK(created % n == 0); // wear-out: the same count on every rank
    CHECK(created > 0);
    CHECK(created < 100000L * n);
    CHECK(ops(ran, 1) == created);
    CHECK(ops(ran, 2) == created);
    CHECK(!pio::test::exists(top));
    CHECK(!pio::test::exists(top + ".pio-owner"));
    return created > 0 && ops(ran, 1) == created && ops(ran, 2) == created &&
           !pio::test::exists(top);
  }));
}

TEST_CASE("ranks holding different counts of an inherited tree stop with the agreed error") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  const auto g = geometry(top, pio::metadata::Layout::Easy, 13);
  // In the find block's untimed syncfs, the last rank loses its last item.
  pio::test::set_syncfs_hook([&] {
    if (pio::test::rank() == pio::test::size() - 1) {
      pio::metadata::ItemPaths paths(g, pio::test::rank());
      ::unlink(paths.path(12));
    }
  });
  const auto ran =
      pio::test::run_config(dir, "differ",
                            chain(top, "Mode easy\nItems 13\nDepth 1\nBranching 2\n",
                                  {"create", "find", "stat"}, {{"find", "Writeback on\n"}}));
  pio::test::set_syncfs_hook({});
  const bool one = pio::test::size() == 1;
  REQUIRE(all_ranks((ran.exit_code == 0) == one));
  REQUIRE(on_root([&] {
    const std::string msg = ran.err + ran.results.dump();
    INFO(msg);
    const bool named =
        msg.find("the easy tree under " + top +
                 " holds 12..13 items per rank, different on different ranks") != std::string::npos;
    CHECK(named == !one);
    if (one)
      CHECK(ops(ran, 2) == 12); // one rank: its count, discovered
    CHECK(!pio::test::exists(top));
    return named == !one && !pio::test::exists(top);
  }));
}

TEST_CASE("a block that uses a tree no earlier block made, or no create without FilesFrom, "
          "is an error") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  const auto ran = pio::test::run_config(
      dir, "absent", chain(top, "Mode both\nItems 5\n", {"easy-create", "hard-stat"}));
  REQUIRE(all_ranks(ran.exit_code != 0));
  REQUIRE(on_root([&] {
    const std::string msg = ran.err + ran.results.dump();
    INFO(msg);
    const bool named = msg.find("the hard tree under " + top +
                                " does not exist: no earlier block of the chain (FilesFrom) "
                                "created it") != std::string::npos;
    CHECK(named);
    CHECK(!pio::test::exists(top));
    return named && !pio::test::exists(top);
  }));
  const auto alone = pio::test::run_config(dir, "bad",
                                           "<ap_module>\nModuleName metadata\nTestFile " + top +
                                               "\nMode easy\nPhases stat\n"
                                               "</ap_module>\n");
  REQUIRE(all_ranks(alone.exit_code == 2));
  REQUIRE(on_root([&] {
    INFO(alone.err);
    const bool located =
        alone.err.find("bad.conf:") != std::string::npos &&
        alone.err.find("Phases: stat comes before easy create") != std::string::npos &&
        alone.err.find("or take the tree from an earlier block with FilesFrom") !=
            std::string::npos;
    CHECK(located);
    return located;
  }));
  REQUIRE(all_ranks(!pio::test::exists(top)));
}
