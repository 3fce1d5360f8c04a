// A claimed directory left by a dead run (docs/reference/reliability.md): the tree rule in its
// owner record lets the next run remove exactly the entries that run may have made, and nothing at
// all if one entry below it falls outside the rule; the rule survives the record's stamps. Each
// rank works in its own directory.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>
#include <time.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "guard/owned_files.hpp"
#include "guard/owner_record.hpp"
#include "guard/tree_sweep.hpp"
#include "mpi_test.hpp"
#include "pio/error.hpp"

using pio::test::all_ranks;

namespace {

/// Every entry below dir: relative path -> "d" or size and inode (what "touched nothing" means).
void listing(const std::string &dir, const std::string &rel,
             std::map<std::string, std::string> &out) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return;
  while (const dirent *e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    struct stat st {};
    ::lstat((dir + "/" + name).c_str(), &st);
    out[rel + name] =
        S_ISDIR(st.st_mode) ? "d" : std::to_string(st.st_size) + "@" + std::to_string(st.st_ino);
    if (S_ISDIR(st.st_mode))
      listing(dir + "/" + name, rel + name + "/", out);
  }
  ::closedir(d);
}
std::map<std::string, std::string> listing(const std::string &dir) {
  std::map<std::string, std::string> out;
  listing(dir, "", out);
  return out;
}

void file(const std::string &path, std::size_t bytes) {
  std::ofstream(path) << std::string(bytes, 'x');
}

std::string text_of(const std::string &path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// A pid no process can have: above the kernel's pid_max.
long dead_pid() {
  long pid_max = 4194304;
  std::ifstream("/proc/sys/kernel/pid_max") >> pid_max;
  return pid_max + 1;
}

/// The rule of an mdtest-hard tree: root "shared", depth 1, branching 2 (dir.1, dir.2),
/// 2 owners with 5 items each of at most 10 bytes.
pio::TreeRule hard_rule() {
  pio::TreeRule r;
  r.root_name = "shared";
  r.owners = 2;
  r.depth = 1;
  r.branching = 2;
  r.items = 5;
  r.item_size = 10;
  return r;
}

/// What a run killed mid-create leaves: the directories, some items (owner o's item i in node
/// i mod 3), and an owner record of a dead process with hard_rule() as its tree line.
void leftover(const std::string &top, const std::string &host) {
  ::mkdir(top.c_str(), 0755);
  ::mkdir((top + "/shared").c_str(), 0755);
  ::mkdir((top + "/shared/dir.1").c_str(), 0755);
  ::mkdir((top + "/shared/dir.2").c_str(), 0755);
  const char *node[] = {"/shared/", "/shared/dir.1/", "/shared/dir.2/"};
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 4; ++i) // items 0..3 made, 4 not yet
      file(top + node[i % 3] + "file." + std::to_string(o) + "." + std::to_string(i),
           o == 0 ? 10 : 0);
  const auto &me = pio::harness::my_owner_record();
  std::ofstream(pio::harness::owner_record_path(top))
      << "pio-bench owner record v1\nrun dead-run\nhost " << host << "\npid " << dead_pid()
      << "\nboot " << me.boot_id << "\nstart 1\nstarted_at 2020-01-01T00:00:00Z\ncreated 1\n"
      << "tree shared shared 2 1 2 dir. file. 5 10\n";
}

} // namespace

TEST_CASE("a dead run's tree is removed by the rule in its owner record", "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  const std::string record = pio::harness::owner_record_path(top);
  const auto &me = pio::harness::my_owner_record();
  leftover(top, me.host);
  const auto rec = pio::harness::read_owner_record(top);
  REQUIRE(all_ranks(rec && rec->trees.size() == 1 && rec->trees[0].root_name == "shared" &&
                    !rec->trees[0].per_owner && rec->trees[0].owners == 2 &&
                    rec->trees[0].items == 5 && rec->trees[0].item_size == 10));
  const auto sweep = pio::harness::sweep_tree(top, rec->trees);
  REQUIRE(all_ranks(sweep.foreign.empty() && sweep.items.size() == 8 && sweep.dirs.size() == 3 &&
                    sweep.dirs.back() == top + "/shared")); // children before parents
  std::ostringstream note;
  pio::harness::OwnedFiles files(false, false);
  files.check(top, &note);
  REQUIRE(all_ranks(!pio::test::exists(top) && !pio::test::exists(record)));
  REQUIRE(all_ranks(note.str().find("removed " + top + " and the 11 entries below it") !=
                    std::string::npos));
}

TEST_CASE("one entry outside the rule: nothing is removed and the entry is named", "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  const std::string record = pio::harness::owner_record_path(top);
  const auto &me = pio::harness::my_owner_record();
  struct Case {
    const char *what;
    std::string path; ///< the foreign entry, relative to top
    std::string why;  ///< what the error says about it
    void (*plant)(const std::string &);
  };
  const Case cases[] = {
      {"a file of another name", "/shared/dir.1/notes.txt", "a name the rule does not make",
       [](const std::string &p) { file(p, 3); }},
      {"an item larger than the item size", "/shared/dir.2/file.1.2",
       "11 bytes, more than the rule's 10",
       [](const std::string &p) {
         ::unlink(p.c_str());
         file(p, 11);
       }},
      {"a link named like an item", "/shared/file.1.3", "not a regular file",
       [](const std::string &p) {
         ::unlink(p.c_str());
         (void)::symlink("/etc/passwd", p.c_str());
       }},
      {"an item in the wrong directory", "/shared/file.0.1", "does not belong in this directory",
       [](const std::string &p) { file(p, 1); }},
      {"an item of an owner the rule does not have", "/shared/file.2.0", "an item of owner 2",
       [](const std::string &p) { file(p, 1); }},
      {"an item beyond the items per owner", "/shared/dir.2/file.0.5", "item 5 does not belong",
       [](const std::string &p) { file(p, 1); }},
      {"a directory below the rule's depth", "/shared/dir.1/dir.3", "a name the rule does not make",
       [](const std::string &p) { ::mkdir(p.c_str(), 0755); }},
      {"a second root", "/rank.0", "a name the rule does not make",
       [](const std::string &p) { ::mkdir(p.c_str(), 0755); }},
  };
  for (const auto &c : cases) {
    INFO(c.what);
    leftover(top, me.host);
    c.plant(top + c.path);
    const auto before = listing(top);
    const std::string rec_before = text_of(record);
    std::string msg;
    try {
      pio::harness::OwnedFiles files(false, false);
      files.check(top, nullptr);
    } catch (const pio::Error &e) {
      msg = std::string(e.what()) + " | " + e.hint();
    }
    INFO(msg);
    CHECK(msg.find("holds " + top + c.path + " (") != std::string::npos);
    CHECK(msg.find(c.why) != std::string::npos);
    CHECK(msg.find("pio-harness removed nothing") != std::string::npos);
    CHECK(msg.find("move " + top + c.path + " out") != std::string::npos);
    CHECK(listing(top) == before);
    CHECK(text_of(record) == rec_before);
    REQUIRE(all_ranks(listing(top) == before && !msg.empty()));
    // The user moves the foreign entry out: the next look removes the rest.
    ::unlink((top + c.path).c_str());
    ::rmdir((top + c.path).c_str());
    if (std::string(c.what).find("larger") != std::string::npos ||
        std::string(c.what).find("link") != std::string::npos)
      file(top + c.path, 0); // the item the run made, as it was
    pio::harness::OwnedFiles files(false, false);
    files.check(top, nullptr);
    REQUIRE(all_ranks(!pio::test::exists(top) && !pio::test::exists(record)));
  }
}

TEST_CASE("a tree left by a run on another host goes only with --clean-stale", "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  leftover(top, "another-host.invalid");
  const auto before = listing(top);
  std::string msg;
  try {
    pio::harness::OwnedFiles files(false, false);
    files.check(top, nullptr);
  } catch (const pio::Error &e) {
    msg = e.what();
  }
  REQUIRE(all_ranks(msg.find("on another host") != std::string::npos && listing(top) == before));
  pio::harness::OwnedFiles stale(false, false, true);
  std::ostringstream note;
  stale.check(top, &note);
  REQUIRE(all_ranks(!pio::test::exists(top) &&
                    note.str().find("(--clean-stale)") != std::string::npos));
}

TEST_CASE("a claimed directory's rules are written, kept through stamps, and checked", "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  pio::TreeRule easy = hard_rule();
  easy.per_owner = true;
  easy.root_name = "rank.";
  easy.item_size = 0;
  pio::TreeRules rules{easy, hard_rule()};
  {
    pio::harness::OwnedFiles files(false, false);
    files.claim(top, &rules);
    REQUIRE(all_ranks(::mkdir(top.c_str(), 0755) == 0));
    files.stamp(top, false);
    const auto rec = pio::harness::read_owner_record(top);
    REQUIRE(all_ranks(rec && rec->stamped && rec->trees.size() == 2 && rec->trees[0].per_owner &&
                      rec->trees[0].root_name == "rank." && rec->trees[0].depth == 1 &&
                      rec->trees[0].branching == 2 && rec->trees[0].dir_prefix == "dir." &&
                      rec->trees[0].item_prefix == "file." && rec->trees[0].item_size == 0 &&
                      rec->trees[1].root_name == "shared" && rec->trees[1].item_size == 10));
    REQUIRE(all_ranks(files.release(top) && !pio::test::exists(top)));
  }
  rules[1].item_prefix = "my file";
  std::string msg;
  try {
    pio::harness::OwnedFiles files(false, false);
    files.claim(top, &rules);
  } catch (const pio::Error &e) {
    msg = e.what();
  }
  REQUIRE(
      all_ranks(msg.find("bad tree rule: the tree rule's name 'my file'") != std::string::npos &&
                !pio::test::exists(pio::harness::owner_record_path(top))));
}

TEST_CASE("two trees in one directory: each root is swept by its own rule", "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  const auto &me = pio::harness::my_owner_record();
  leftover(top, me.host);
  // An easy tree of owner 1 beside the hard one: depth 0, 3 empty items.
  ::mkdir((top + "/rank.1").c_str(), 0755);
  for (int i = 0; i < 3; ++i)
    file(top + "/rank.1/file.1." + std::to_string(i), 0);
  std::ofstream(pio::harness::owner_record_path(top), std::ios::app)
      << "tree rank. per-owner 2 0 1 dir. file. 3 0\n";
  const auto rec = pio::harness::read_owner_record(top);
  REQUIRE(all_ranks(rec && rec->trees.size() == 2));
  // Owner 0's item in owner 1's root, and a 1-byte item where the easy rule allows 0 bytes.
  for (const std::string bad : {"/rank.1/file.0.0", "/rank.1/file.1.0"}) {
    INFO(bad);
    if (bad == "/rank.1/file.1.0")
      file(top + bad, 1);
    else
      file(top + bad, 0);
    const auto sweep = pio::harness::sweep_tree(top, rec->trees);
    CHECK(sweep.foreign == top + bad);
    CHECK(sweep.items.empty());
    REQUIRE(all_ranks(sweep.foreign == top + bad));
    ::unlink((top + bad).c_str());
  }
  file(top + "/rank.1/file.1.0", 0);
  const auto sweep = pio::harness::sweep_tree(top, rec->trees);
  REQUIRE(all_ranks(sweep.foreign.empty() && sweep.items.size() == 11 && sweep.dirs.size() == 4));
  pio::harness::OwnedFiles files(false, false);
  files.check(top, nullptr);
  REQUIRE(all_ranks(!pio::test::exists(top)));
}

TEST_CASE("an item the rule names but made after the dead run was last seen is not the run's: "
          "nothing is removed",
          "[tree]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("md." + std::to_string(pio::test::rank()));
  const std::string record = pio::harness::owner_record_path(top);
  const auto &me = pio::harness::my_owner_record();
  leftover(top, me.host);
  const auto rules = pio::harness::read_owner_record(top)->trees;
  // The run was last seen after its items, then the user put a file of a valid item name there.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  const long long seen = now.tv_sec * 1000000000LL + now.tv_nsec;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::string users = top + "/shared/dir.1/file.0.4"; // item 4 of owner 0, in node 4 mod 3
  file(users, 5);
  auto sweep = pio::harness::sweep_tree(top, rules, seen);
  REQUIRE(all_ranks(sweep.foreign == users && sweep.items.empty() &&
                    sweep.why.find("after the run that made the tree was last seen") !=
                        std::string::npos));
  REQUIRE(all_ranks(pio::harness::sweep_tree(top, rules).foreign.empty())); // no such rule
  // Through the owner record: the run touched it every 5 s while it filled the tree, last a
  // minute ago; what changed since (here everything) is not removed, and named.
  std::ofstream(record, std::ios::app) << "refresh 5\n";
  const timespec a_minute_ago[2] = {{::time(nullptr) - 60, 0}, {::time(nullptr) - 60, 0}};
  REQUIRE(::utimensat(AT_FDCWD, record.c_str(), a_minute_ago, 0) == 0);
  const auto before = listing(top);
  std::string msg;
  try {
    pio::harness::OwnedFiles files(false, false);
    files.check(top, nullptr);
  } catch (const pio::Error &e) {
    msg = e.what();
  }
  REQUIRE(all_ranks(
      msg.find("after the run that made the tree was last seen") != std::string::npos &&
      msg.find("pio-harness removed nothing") != std::string::npos && listing(top) == before));
}
