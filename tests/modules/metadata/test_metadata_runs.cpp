// The metadata module through the harness, at 1, 2 and 4 ranks: exact trees and counts, easy
// and hard; ops/s as the unit; nothing left behind; foreign entries refused; stonewall + wear-out;
// Writeback's syncfs, CreateSync's sync and Verify's check of the bytes read (timed: in the read's
// work unit, on: in its after_work_unit); progress counted item by item for StepTimeout.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "guard/position.hpp"
#include "item_content.hpp"
#include "mpi_test.hpp"
#include "syncfs_log.hpp"
#include "tree.hpp"
#include "tree_on_disk.hpp"

using pio::test::all_ranks;
using pio::test::expected_tree;
using pio::test::on_root;
using pio::test::tree_of;

namespace {

std::string block(const std::string &dir, const std::string &extra) {
  return "<ap_module>\nModuleName metadata\nTestFile " + dir + "\n" + extra + "</ap_module>\n";
}

} // namespace

TEST_CASE("create makes exactly the tree the geometry says, easy and hard, POSIX and MPI-IO") {
  pio::test::TempDir dir;
  for (const std::string calls : {"posix", "mpiio"})
    for (const std::string mode : {"easy", "hard"}) {
      INFO("Interface " << calls);
      const std::string top = dir.file("md-" + mode + "-" + calls);
      const auto ran =
          pio::test::run_config(dir, "create-" + mode + "-" + calls,
                                block(top, "Mode " + mode +
                                               "\nItems 23\nDepth 2\nBranching 3\nFileSize 37\n"
                                               "Phases create\nKeepTree on\nInterface " +
                                               calls + "\n"));
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const pio::metadata::Geometry g = pio::test::geometry_of(
            top, mode == "hard" ? pio::metadata::Layout::Hard : pio::metadata::Layout::Easy, 23, 2,
            3);
        CHECK(g.nodes() == 13);
        const auto want = expected_tree(g, pio::test::size(), 37, 23);
        const auto have = tree_of(top);
        CHECK(have == want);
        const auto &test = ran.results["modules"][0]["tests"][0];
        CHECK(test["rate_unit"] == "ops/s");
        CHECK(test["reps"][0]["ops"] == 23 * pio::test::size());
        CHECK(test["reps"][0]["bytes"] == 0);
        CHECK(test["reps"][0]["ops_per_s"].get<double>() > 0);
        return have == want;
      }));
    }
}

TEST_CASE("every phase counts exactly, ops/s shown, nothing left, nothing else touched") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("sentinel"), "not ours\n");
  for (const std::string calls : {"posix", "mpiio"})
    for (const std::string mode : {"easy", "hard"}) {
      INFO("Interface " << calls);
      const std::string top = dir.file("md-" + mode);
      const auto ran = pio::test::run_config(
          dir, "all-" + mode + "-" + calls,
          block(top, "Mode " + mode +
                         "\nItems 17\nDepth 1\nBranching 2\nFileSize 3901\n"
                         "Phases create stat find read remove\nFindSize 3901\nFindName *.1*\n"
                         "ModuleReps 2\nInterface " +
                         calls + "\n"));
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const int n = pio::test::size();
        const auto &tests = ran.results["modules"][0]["tests"];
        CHECK(tests.size() == 5);
        for (const auto &t : tests) {
          CHECK(t["rate_unit"] == "ops/s");
          CHECK(t["params"]["item_calls"] == calls);
          CHECK(ran.results["modules"][0]["interface"] == calls);
          CHECK(t["reps"].size() == 2);
          for (const auto &rep : t["reps"]) {
            const std::string phase = t["params"]["phase"];
            // find scans every entry below the test directory: the files and the directories
            // (easy: a base and 2 subdirectories per rank; hard: one shared tree of 3).
            const long dirs = mode == "easy" ? 3L * n : 3L;
            const long want = phase == "find" ? 17L * n + dirs : 17L * n;
            CHECK(rep["ops"] == want);
          }
        }
        CHECK(ran.out.find("ops/s") != std::string::npos);
        CHECK(!pio::test::exists(top));
        CHECK(!pio::test::exists(top + ".pio-owner"));
        CHECK(pio::test::read_bytes(dir.file("sentinel")).size() == 9);
        return !pio::test::exists(top);
      }));
    }
}

TEST_CASE("a test directory holding a foreign entry is refused and left alone") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  if (pio::test::rank() == 0)
    ::mkdir(top.c_str(), 0755);
  pio::test::write_text(top + "/foreign.txt", "user data\n");
  // Without Overwrite the harness refuses the existing path; with it the module refuses the
  // entry inside. Either way nothing is touched.
  for (const bool overwrite : {false, true}) {
    const auto ran = pio::test::run_config(dir, overwrite ? "ow" : "plain", block(top, "Items 5\n"),
                                           false, overwrite);
    REQUIRE(all_ranks(ran.exit_code != 0));
    REQUIRE(on_root([&] {
      const std::string msg = ran.err + ran.results.dump(); // refused on stderr or in results
      INFO(msg);
      CHECK(msg.find(overwrite ? "already holds foreign.txt" : "already exists") !=
            std::string::npos);
      const auto have = tree_of(top);
      CHECK(have.size() == 1);
      CHECK(have.count("foreign.txt") == 1);
      return have.size() == 1;
    }));
  }
}

TEST_CASE("stonewall with wear-out leaves every rank with the same count") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  const auto ran = pio::test::run_config(
      dir, "sw",
      block(top, "Mode hard\nItems 100000000\nStonewallTime 0.3\nPhases create\nKeepTree on\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const int n = pio::test::size();
    std::map<int, long> per_rank; // owner -> files on disk
    for (const auto &[path, size] : tree_of(top))
      if (size >= 0) {
        const auto dot = path.find('.', path.find("file.") + 5);
        ++per_rank[std::stoi(path.substr(path.find("file.") + 5, dot))];
      }
    CHECK(static_cast<int>(per_rank.size()) == n);
    const long count = per_rank.begin()->second;
    for (const auto &[r, c] : per_rank)
      CHECK(c == count);
    CHECK(count > 0);
    CHECK(count < 100000000);
    const auto &fig = ran.results["modules"][0]["figure"];
    const auto &row = fig["tables"][0]["rows"][0];
    INFO(fig.dump());
    CHECK(row[3] == count);                 // the largest count any rank reached at the stop
    CHECK(row[4].get<long>() <= count * n); // all ranks at the stop, before wear-out
    CHECK(row[5].get<double>() >= 0.3);     // stonewall time
    CHECK(ran.results["modules"][0]["tests"][0]["reps"][0]["ops"] == count * n);
    // The deadline is a setting, named in the table: the block's figure of merit stays the
    // create's rate, in the console's summary too (not "stonewall 0.3 s").
    CHECK_THAT(fig["tables"][0]["name"].get<std::string>(),
               Catch::StartsWith("stonewalled phases, StonewallTime 0.3 s"));
    CHECK(fig["values"].empty());
    const auto merit = ran.out.find("summary: the figure of merit of every block");
    CHECK(merit != std::string::npos);
    CHECK_THAT(ran.out.substr(std::min(merit, ran.out.size())),
               Catch::Contains("hard create median") && Catch::Contains("ops/s") &&
                   !Catch::Contains("stonewall"));
    return per_rank.size() == static_cast<size_t>(n);
  }));
  // KeepTree left the items to us: the scratch directory removes them.
}

TEST_CASE("Mode both: the two trees side by side, find walks both with exact counts") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("sentinel"), "not ours\n");
  const std::string top = dir.file("md-both");
  // IO500's metadata order: easy 0-byte files, hard 3901-byte files, find over both trees
  // matching *1* of 3901 bytes (only hard items can match).
  const auto ran = pio::test::run_config(
      dir, "both",
      block(top, "Mode both\nItems 13\nHardItems 11\nFileSize 0\nHardFileSize 3901\nDepth 1\n"
                 "Branching 2\nPhases easy-create hard-create find easy-stat hard-stat "
                 "easy-remove hard-read hard-remove\nFindName *1*\nFindSize 3901\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const int n = pio::test::size();
    const auto &m = ran.results["modules"][0];
    const auto &tests = m["tests"];
    INFO(m.dump());
    CHECK(tests.size() == 8);
    std::vector<std::string> labels;
    for (const auto &t : tests)
      labels.push_back(t["label"]);
    CHECK(labels == std::vector<std::string>{"easy create", "hard create", "find", "easy stat",
                                             "hard stat", "easy remove", "hard read",
                                             "hard remove"});
    const long easy = 13L * n, hard = 11L * n;
    // Directories: easy a base and 2 subdirectories per rank, hard one shared tree of 3.
    const long dirs = 3L * n + 3L;
    const long want[] = {easy, hard, easy + hard + dirs, easy, hard, easy, hard, hard};
    for (size_t k = 0; k < 8; ++k)
      CHECK(tests[k]["reps"][0]["ops"] == want[k]);
    CHECK(tests[2]["params"]["mode"] == "both");
    CHECK(tests[0]["params"]["mode"] == "easy");
    CHECK(tests[1]["params"]["file_size"] == "3901");
    // matched: the hard items whose name file.<r>.<i> holds a '1'.
    long matched = 0;
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < 11; ++i)
        if (pio::metadata::Geometry::item_name(r, i).find('1') != std::string::npos)
          ++matched;
    const auto &find = m["figure"]["tables"][0];
    CHECK(find["columns"][3] == "matched");
    CHECK(find["rows"][0][2] == easy + hard + dirs);
    CHECK(find["rows"][0][3] == matched);
    CHECK(!pio::test::exists(top));
    CHECK(!pio::test::exists(top + ".pio-owner"));
    CHECK(pio::test::read_bytes(dir.file("sentinel")).size() == 9);
    return !pio::test::exists(top);
  }));
}

TEST_CASE("Phases that do not name their tree under Mode both are a config error") {
  pio::test::TempDir dir;
  for (const auto &[extra, want] : std::vector<std::pair<std::string, std::string>>{
           {"Mode both\nPhases create\n", "Phases: create does not say which tree (Mode both)"},
           {"Mode easy\nPhases hard-create\n", "names the hard tree, but Mode is easy"},
           {"Mode both\nPhases easy-create hard-stat\n", "hard-stat comes before hard create"}}) {
    const auto ran = pio::test::run_config(dir, "bad", block(dir.file("md"), extra));
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(on_root([&] { // the harness prints the located error once
      INFO(ran.err);
      CHECK(ran.err.find(want) != std::string::npos);
      CHECK(ran.err.find("bad.conf:") != std::string::npos);
      return ran.err.find(want) != std::string::npos;
    }));
    REQUIRE(all_ranks(!pio::test::exists(dir.file("md"))));
  }
}

TEST_CASE("Writeback on: one syncfs of the test directory per rank before every phase but create") {
  pio::test::TempDir dir;
  char real[PATH_MAX];
  REQUIRE(::realpath(dir.file("").c_str(), real) != nullptr);
  const std::string top = dir.file("md"), real_top = std::string(real) + "/md";
  const std::string phases = "Phases easy-create hard-create find easy-stat hard-stat "
                             "easy-remove hard-read hard-remove\n";
  for (const bool on : {true, false}) {
    INFO("Writeback " << (on ? "on" : "default (off)"));
    pio::test::clear_syncfs_calls();
    const auto ran =
        pio::test::run_config(dir, on ? "wb-on" : "wb-off",
                              block(top, "Mode both\nItems 5\nHardFileSize 3901\nModuleReps 2\n" +
                                             phases + (on ? "Writeback on\n" : "")));
    REQUIRE(all_ranks(ran.exit_code == 0));
    // 6 phases that are not a create, 2 repetitions each: 12 calls on every rank, all on the
    // test directory (none at all when off).
    const auto &calls = pio::test::syncfs_calls();
    bool right = calls.size() == (on ? 12u : 0u);
    for (const auto &c : calls)
      right = right && c == real_top;
    INFO("syncfs calls on this rank: " << calls.size()
                                       << (calls.empty() ? "" : ", first on " + calls.front()));
    REQUIRE(all_ranks(right));
    REQUIRE(on_root([&] {
      const auto &m = ran.results["modules"][0];
      INFO(m.dump());
      bool ok = true;
      for (const auto &t : m["tests"]) {
        const bool create = t["params"]["phase"] == "create";
        CHECK(t["params"]["writeback"] == (on && !create ? "on" : "off"));
        CHECK(t["reps"].size() == 2);
        ok = ok && t["params"]["writeback"] == (on && !create ? "on" : "off");
      }
      // The find table is always there; the writeback table only when on, a row per flush in
      // the order the phases ran.
      const auto &tables = m["figure"]["tables"];
      std::vector<std::string> rows;
      for (const auto &tb : tables)
        if (tb["name"].get<std::string>().rfind("writeback", 0) == 0)
          for (const auto &r : tb["rows"]) {
            rows.push_back(r[0].get<std::string>() + " " + std::to_string(r[1].get<int>()));
            CHECK(r[2].get<double>() >= 0);
          }
      // The harness runs a test's repetitions one after the other, then the next test.
      std::vector<std::string> want;
      for (const std::string label :
           {"find", "easy stat", "hard stat", "easy remove", "hard read", "hard remove"})
        for (const std::string rep : {"0", "1"})
          if (on)
            want.push_back(label + " " + rep);
      CHECK(rows == want);
      CHECK(!pio::test::exists(top));
      return ok && rows == want;
    }));
  }
}

TEST_CASE("a Writeback value other than on or off is a located config error") {
  pio::test::TempDir dir;
  pio::test::clear_syncfs_calls();
  const auto ran = pio::test::run_config(dir, "bad", block(dir.file("md"), "Writeback maybe\n"));
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    INFO(ran.err);
    CHECK(ran.err.find("Writeback") != std::string::npos);
    CHECK(ran.err.find("maybe") != std::string::npos);
    CHECK(ran.err.find("on or off") != std::string::npos);
    CHECK(ran.err.find("bad.conf:4") != std::string::npos);
    return ran.err.find("bad.conf:4") != std::string::npos;
  }));
  REQUIRE(all_ranks(pio::test::syncfs_calls().empty()));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("md"))));
}

TEST_CASE("Verify: a byte changed between create and read stops the read naming it, timed in "
          "work_unit, on in after_work_unit, off never") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  pio::metadata::Geometry g;
  g.top = top;
  g.layout = pio::metadata::Layout::Hard;
  g.items = 7;
  // Rank 0's item 5, byte 1000: changed in the (untimed) syncfs before the read.
  const std::string victim = g.directories(0)[static_cast<size_t>(g.node_of(5))] + "/" +
                             pio::metadata::Geometry::item_name(0, 5);
  const std::uint8_t want = pio::metadata::ItemContent(0, 3901).expected(5, 1000);
  char message[256];
  std::snprintf(message, sizeof message,
                "Verify: %s (item 5 of rank 0): byte 1000 of 3901 is 0x%02x, expected 0x%02x",
                victim.c_str(), want ^ 0xffu, want);
  // The harness names the method that threw: the check's place, timed or not.
  const std::string in_unit = std::string("work_unit: ") + message,
                    after_unit = std::string("after_work_unit: ") + message;
  for (const std::string verify : {"timed", "on", "off"})
    for (const bool corrupt : {true, false}) {
      INFO("Verify " << verify << ", a byte changed " << corrupt);
      const bool checks = verify != "off";
      bool changed = false;
      pio::test::set_syncfs_hook([&] {
        if (!corrupt || changed || pio::test::rank() != 0)
          return;
        const int fd = ::open(victim.c_str(), O_RDWR);
        char byte = 0;
        changed = fd >= 0 && ::pread(fd, &byte, 1, 1000) == 1;
        byte = static_cast<char>(byte ^ 0xff);
        changed = changed && ::pwrite(fd, &byte, 1, 1000) == 1;
        ::close(fd);
      });
      const auto ran = pio::test::run_config(
          dir, "verify-" + verify + (corrupt ? "-changed" : ""),
          block(top, "Mode hard\nItems 7\nFileSize 3901\nPhases create read\nWriteback on\n"
                     "Verify " +
                         verify + "\n"));
      pio::test::set_syncfs_hook({});
      REQUIRE(all_ranks(pio::test::rank() != 0 || changed == corrupt));
      REQUIRE(all_ranks((ran.exit_code == 0) == !(checks && corrupt)));
      REQUIRE(on_root([&] {
        const std::string msg = ran.err + ran.results.dump();
        INFO(msg);
        const bool named = msg.find(message) != std::string::npos;
        // "after_work_unit: <message>" holds "work_unit: <message>": timed must not hold the
        // former.
        const bool after = msg.find(after_unit) != std::string::npos;
        const bool where =
            verify == "timed" ? msg.find(in_unit) != std::string::npos && !after : after;
        CHECK(named == (checks && corrupt));
        if (checks && corrupt)
          CHECK(where);
        if (!corrupt) {
          const auto &m = ran.results["modules"][0];
          CHECK(m["verify"] == verify);
          CHECK(m["tests"][1]["params"]["phase"] == "read");
          CHECK(m["tests"][1]["params"].count("verify_read") == 0);
          CHECK(m["tests"][1]["reps"][0]["ops"] == 7 * pio::test::size());
        }
        CHECK(!pio::test::exists(top));
        return named == (checks && corrupt) && (!named || where) && !pio::test::exists(top);
      }));
    }
}

TEST_CASE("VerifyRead is no directive any more: a located unknown-directive error") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(dir, "bad", block(dir.file("md"), "VerifyRead on\n"));
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    INFO(ran.err);
    const bool located =
        ran.err.find("bad.conf:4: unknown directive 'VerifyRead' for module metadata") !=
        std::string::npos;
    CHECK(located);
    return located;
  }));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("md"))));
}

TEST_CASE("CreateSync on: each rank calls sync once at the end of every create, never when off") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md");
  for (const bool on : {true, false}) {
    INFO("CreateSync " << on);
    pio::test::clear_syncfs_calls();
    const auto ran = pio::test::run_config(
        dir, on ? "csync-on" : "csync-off",
        block(top, std::string("Mode both\nItems 5\nHardFileSize 3901\nModuleReps 2\nPhases "
                               "easy-create hard-create easy-stat easy-remove hard-remove\n") +
                       (on ? "CreateSync on\n" : "")));
    REQUIRE(all_ranks(ran.exit_code == 0));
    // Two creates, two repetitions each (the untimed re-creates before remove make none).
    INFO("sync calls on this rank: " << pio::test::sync_calls());
    REQUIRE(all_ranks(pio::test::sync_calls() == (on ? 4 : 0)));
    REQUIRE(on_root([&] {
      const auto &tests = ran.results["modules"][0]["tests"];
      CHECK(tests[0]["params"]["create_sync"] == (on ? "on" : "off"));
      CHECK(tests[1]["params"]["create_sync"] == (on ? "on" : "off"));
      CHECK(tests[2]["params"].count("create_sync") == 0);
      return tests[0]["params"]["create_sync"] == (on ? "on" : "off");
    }));
  }
}

TEST_CASE("progress inside every phase counts for StepTimeout: a beat per item") {
  pio::test::TempDir dir;
  const std::int64_t items = 300;
  std::atomic<std::uint64_t> &beats = *pio::harness::module_progress();
  const std::uint64_t before = beats.load();
  const auto ran = pio::test::run_config(
      dir, "beats",
      block(dir.file("md"), "Items " + std::to_string(items) +
                                "\nFileSize 10\nPhases create stat read find remove\n"));
  const std::uint64_t counted = beats.load() - before;
  // create, stat, read and remove: one beat per item of this rank each; find: one per entry
  // this rank reads; cleanup: one per item name it tries.
  INFO("counted " << counted);
  REQUIRE(all_ranks(ran.exit_code == 0 && counted >= static_cast<std::uint64_t>(5 * items)));
}
