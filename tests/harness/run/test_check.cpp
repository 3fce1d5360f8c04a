// --check checks what the run size and the file system decide, before any I/O (issue 28,
// docs/reference/reliability.md): each case exits 2 with file:line and a fix, in --check and in the
// run, and no test file is made.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {
/// Runs config_text with --check (check) or for real; the same options otherwise.
pio::test::Ran run(const pio::test::TempDir &dir, const std::string &name,
                   const std::string &config_text, bool check, pio::harness::RunOptions opt = {}) {
  opt.check_only = check;
  return pio::test::run_config_with(dir, name, config_text, opt);
}
bool says(const pio::test::Ran &ran, const std::string &text) {
  return on_root([&] { return ran.err.find(text) != std::string::npos; });
}
} // namespace

TEST_CASE("--check: a TestFile in a directory that does not exist", "[check]") {
  pio::test::TempDir dir;
  const std::string missing = dir.file("no/such/dir/t.dat");
  for (bool check : {true, false}) {
    auto ran = run(dir, "nodir",
                   "TestFile " + missing + "\n<ap_module>\nModuleName null\n</ap_module>\n", check);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "nodir.conf:1: the directory of test file " + missing));
    REQUIRE(says(ran, "does not exist (fix: create the directory"));
    // A block's own TestFile: the block's line.
    ran = run(dir, "blockdir",
              "TestFile " + dir.file("ok.dat") +
                  "\n<ap_module>\nModuleName null\n</ap_module>\n"
                  "<ap_module>\nModuleName null\nTestFile " +
                  missing + "\n</ap_module>\n",
              check);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "blockdir.conf:5: the directory of test file " + missing));
    REQUIRE(all_ranks(!pio::test::exists(dir.file("ok.dat"))));
  }
}

TEST_CASE("--check: a module that needs more ranks than the run has", "[check]") {
  pio::test::TempDir dir;
  const std::string conf = "TestFile " + dir.file("p.dat") +
                           "\n<ap_module>\nModuleName null\n</ap_module>\n"
                           "<ap_module>\nModuleName imb_pingpong\nMsgLengths 0 1K\n</ap_module>\n";
  const auto ran = run(dir, "pingpong", conf, true);
  if (pio::test::size() >= 2) {
    REQUIRE(all_ranks(ran.exit_code == 0));
    return;
  }
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(says(ran, "pingpong.conf:6: module imb_pingpong cannot run as this block asks on 1 "
                    "process (rank 0): "));
  REQUIRE(says(ran, "needs 2 processes"));
  REQUIRE(says(ran, "(fix: run with mpiexec -n 2 or more)"));
}

TEST_CASE("--check and the run: b_eff_io Partitions beyond the run's ranks", "[check]") {
  pio::test::TempDir dir;
  for (bool check : {true, false}) {
    const auto ran = run(dir, check ? "parts" : "partsrun",
                         "TestFile " + dir.file("b.dat") +
                             "\n<ap_module>\nModuleName beff_io\nScheduledTime 1\n"
                             "Partitions 1 8\n</ap_module>\n",
                         check);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, std::string(check ? "parts" : "partsrun") +
                          ".conf:5: Partitions: 8 is more than the " +
                          std::to_string(pio::test::size()) + " processes of the run"));
    REQUIRE(all_ranks(!pio::test::exists(dir.file("b.dat"))));
  }
}

TEST_CASE("--check and the run: ResultsFile (or CsvFile) equal to a block's TestFile", "[check]") {
  pio::test::TempDir dir;
  const std::string same = dir.file("same.dat");
  for (bool check : {true, false}) {
    pio::harness::RunOptions opt;
    opt.check_only = check;
    opt.results_path = same;
    auto ran = pio::test::run_config_with(dir, "same",
                                          "TestFile " + dir.file("other.dat") +
                                              "\n<ap_module>\nModuleName null\nTestFile " + same +
                                              "\n</ap_module>\n",
                                          opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "same.conf:2: ResultsFile " + same +
                          " (given with --results) is also the TestFile " + same));
    REQUIRE(says(ran, "(fix: name different files for ResultsFile and TestFile)"));
    REQUIRE(all_ranks(!pio::test::exists(same)));
    // Another spelling of the same path, and the CSV file.
    pio::harness::RunOptions csv;
    csv.check_only = check;
    csv.csv_path = dir.path() + "/./same.dat";
    ran = pio::test::run_config_with(
        dir, "samecsv", "TestFile " + same + "\n<ap_module>\nModuleName null\n</ap_module>\n", csv);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "samecsv.conf:1: CsvFile " + csv.csv_path));
    REQUIRE(all_ranks(!pio::test::exists(same)));
  }
}

TEST_CASE("--check: a -M or ModulePath module directory that does not exist; ScheduledTime "
          "1e308",
          "[check]") {
  pio::test::TempDir dir;
  for (bool check : {true, false}) {
    const auto ran = run(dir, "modpath",
                         "TestFile " + dir.file("m.dat") + "\nModulePath " + dir.path() +
                             "\nModulePath . no-such-dir\n<ap_module>\nModuleName null\n"
                             "</ap_module>\n",
                         check);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "modpath.conf:3: ModulePath no-such-dir: " + dir.file("no-such-dir") +
                          " does not exist"));
  }
  pio::harness::RunOptions opt;
  opt.check_only = true;
  opt.module_dirs = {pio::test::module_dir(), dir.file("no-modules-here")};
  auto ran = pio::test::run_config_with(
      dir, "nomod",
      "TestFile " + dir.file("m.dat") + "\n<ap_module>\nModuleName null\n</ap_module>\n", opt);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(says(ran, "the module directory " + dir.file("no-modules-here") +
                        " given with -M / --module-path does not exist"));
  ran = run(dir, "huge",
            "TestFile " + dir.file("h.dat") +
                "\n<ap_module>\nModuleName beff_io\nScheduledTime 1e308\n</ap_module>\n",
            true);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(says(ran, "huge.conf:4: ScheduledTime 1e308 is above the maximum"));
}
