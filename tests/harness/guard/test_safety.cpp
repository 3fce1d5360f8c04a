// docs/reference/reliability.md: never delete, truncate or overwrite a file the harness did not
// create in this run; delete what it created unless asked to keep it.
#include <catch2/catch.hpp>

#include <fstream>

#include "mpi_test.hpp"

using pio::test::all_ranks;

namespace {
std::string strided(const std::string &file, const std::string &extra = "") {
  return "TestFile " + file + "\n" + extra +
         "<ap_module>\nModuleName simple_strided\nBufferSizes 1K\nWorkUnits 2\n</ap_module>\n";
}
std::string text_of(const std::string &path) {
  auto b = pio::test::read_bytes(path);
  return std::string(b.begin(), b.end());
}
} // namespace

TEST_CASE("an existing test file is refused and left untouched", "[safety]") {
  pio::test::TempDir dir;
  const std::string precious = dir.file("precious.dat");
  pio::test::write_text(precious, "do not touch");
  const auto ran = pio::test::run_config(dir, "refuse", strided(precious));
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(all_ranks(text_of(precious) == "do not touch"));
  if (pio::test::rank() == 0) {
    CHECK(ran.err.find("already exists") != std::string::npos);
    CHECK(ran.err.find("Overwrite on") != std::string::npos);
  }
  REQUIRE(all_ranks(pio::test::rank() != 0 || ran.err.find(precious) != std::string::npos));
}

TEST_CASE("Overwrite on writes an existing file but never deletes it", "[safety]") {
  pio::test::TempDir dir;
  const std::string f = dir.file("existing.dat");
  pio::test::write_text(f, "old");
  const auto ran = pio::test::run_config(dir, "overwrite", strided(f, "Overwrite on\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(pio::test::exists(f)));
  REQUIRE(all_ranks(pio::test::read_bytes(f).size() == 2 * 1024 * size_t(pio::test::size())));
}

TEST_CASE("files the run created are deleted, or kept with KeepFiles", "[safety]") {
  pio::test::TempDir dir;
  const std::string f = dir.file("made.dat");
  auto ran = pio::test::run_config(dir, "delete", strided(f));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(!pio::test::exists(f)));
  ran = pio::test::run_config(dir, "keep", strided(f, "KeepFiles on\n"));
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(pio::test::exists(f)));
}

TEST_CASE("config errors stop the run before any I/O with file:line on every rank", "[safety]") {
  pio::test::TempDir dir;
  const std::string f = dir.file("never.dat");
  const auto ran = pio::test::run_config(
      dir, "badconf",
      "TestFile " + f + "\n<ap_module>\nModuleName simple_strided\nBufferSize 1K\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(all_ranks(!pio::test::exists(f)));
  REQUIRE(
      all_ranks(pio::test::rank() != 0 || (ran.err.find("badconf.conf:4") != std::string::npos &&
                                           ran.err.find("BufferSize") != std::string::npos &&
                                           ran.err.find("BufferSizes") != std::string::npos)));
  const auto unknown = pio::test::run_config(
      dir, "nomod",
      "TestFile " + f + "\n<ap_module>\nModuleName \"No Such Thing\"\n</ap_module>\n");
  REQUIRE(all_ranks(unknown.exit_code == 2));
  REQUIRE(all_ranks(pio::test::rank() != 0 ||
                    (unknown.err.find("nomod.conf:3") != std::string::npos &&
                     unknown.err.find("simple_strided") != std::string::npos)));
}

TEST_CASE("a kept test file lives from test to test and goes after the module", "[safety]") {
  pio::test::TempDir dir;
  const std::string base = dir.file("kept.dat");
  const auto kept = pio::test::run_config(dir, "kept",
                                          "TestFile " + base +
                                              "\n<ap_module>\nModuleName test_faults\nTests 3\n"
                                              "FileSuffix .type0\nKeepFile on\n</ap_module>\n");
  REQUIRE(all_ranks(kept.exit_code == 0));
  REQUIRE(all_ranks(!pio::test::exists(base + ".type0") && !pio::test::exists(base)));
  REQUIRE(pio::test::on_root([&] {
    const auto &t = kept.results.at("modules").at(0).at("tests");
    CHECK(t.at(2).at("file") == base + ".type0");
    return t.at(2).at("error").is_null();
  }));
  // Without KeepFile the file is deleted after each test: the next test finds it gone.
  const auto gone = pio::test::run_config(dir, "gone",
                                          "TestFile " + base +
                                              "\n<ap_module>\nModuleName test_faults\nTests 2\n"
                                              "FileSuffix .type0\n</ap_module>\n");
  REQUIRE(all_ranks(gone.exit_code == 0)); // the check only runs for kept files
  REQUIRE(all_ranks(!pio::test::exists(base + ".type0")));
}
