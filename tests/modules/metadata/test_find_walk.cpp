// IO500's find (pfind) compares names from the directory entries and stats only the files whose
// name matches: counted here with lstat interposed in the program (find_walk is linked in).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "find_walk.hpp"
#include "mpi_test.hpp"

namespace {

std::vector<std::string> &stat_log() {
  static std::vector<std::string> l;
  return l;
}

void file(const std::string &path, std::size_t size) {
  std::ofstream(path) << std::string(size, 'x');
}

} // namespace

extern "C" int lstat(const char *path, struct stat *st) {
  stat_log().emplace_back(path);
  return static_cast<int>(::syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW));
}

TEST_CASE("find stats only the files whose name matches, and counts every entry", "[metadata]") {
  pio::test::TempDir dir;
  const std::string top = dir.file("tree");
  ::mkdir(top.c_str(), 0700);
  ::mkdir((top + "/d01").c_str(), 0700); // a directory whose name matches: not a file
  file(top + "/a01", 3901);
  file(top + "/a02", 3901); // name does not match: never stat-ed
  file(top + "/b01", 10);   // name matches, size does not
  file(top + "/d01/x01", 3901);
  file(top + "/d01/y", 0);
  REQUIRE(::symlink("a01", (top + "/l01").c_str()) == 0); // matches by name, not a file

  pio::metadata::FindRule rule;
  rule.name_glob = "*01*";
  rule.size = 3901;
  stat_log().clear();
  const auto count = pio::metadata::find_walk(top, rule, 0, 1);
  CHECK(count.scanned == 7);
  CHECK(count.matched == 2); // a01, d01/x01
  CHECK(stat_log() == std::vector<std::string>{top + "/a01", top + "/b01", top + "/d01/x01"});

  // Without a size rule a matching name is enough: no stat at all.
  rule.size = -1;
  stat_log().clear();
  const auto any = pio::metadata::find_walk(top, rule, 0, 1);
  CHECK(any.matched == 3); // a01, b01, d01/x01
  CHECK(stat_log().empty());

  // Two shares examine each entry once between them.
  rule.size = 3901;
  const auto s0 = pio::metadata::find_walk(top, rule, 0, 2);
  const auto s1 = pio::metadata::find_walk(top, rule, 1, 2);
  CHECK(s0.scanned + s1.scanned == 7);
  CHECK(s0.matched + s1.matched == 2);
}
