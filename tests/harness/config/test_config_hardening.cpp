// Configs that used to crash, hang or mislead (issue 14, docs/reference/reliability.md): each is
// refused with file:line and a fix, before Dotconf can misread it.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include "config/config.hpp"
#include "config_helpers.hpp"
#include "mpi_test.hpp"
#include "plan/module_directives.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using pio::harness::ConfigError;
using pio::harness::parse_config;
using pio::test::conf;
using pio::test::error_of;

TEST_CASE("Include of itself, a cycle, nothing, or what is not a config file is refused",
          "[config][hardening]") {
  pio::test::TempDir dir;
  SECTION("itself") {
    CHECK_THAT(error_of(conf(dir, "self.conf", "TestFile t\nInclude self.conf\n")),
               Contains("self.conf:2: Include cycle") && Contains("self.conf includes"));
  }
  SECTION("a cycle of two files") {
    conf(dir, "b.conf", "ShowAverages on\nInclude a.conf\n");
    CHECK_THAT(error_of(conf(dir, "a.conf", "Include b.conf\n")),
               Contains("b.conf:2: Include cycle") && Contains("a.conf includes") &&
                   Contains("b.conf includes"));
  }
  SECTION("an empty name") {
    CHECK_THAT(error_of(conf(dir, "empty.conf", "TestFile t\nInclude \"\"\n")),
               Contains("empty.conf:2: Include without a file name"));
  }
  SECTION("two names") {
    CHECK_THAT(error_of(conf(dir, "two.conf", "Include a b\n")),
               Contains("two.conf:1: Include takes one file name, got 2"));
  }
  SECTION("an endless file") {
    CHECK_THAT(error_of(conf(dir, "zero.conf", "TestFile t\nInclude /dev/zero\n")),
               Contains("zero.conf:2") && Contains("/dev/zero") &&
                   Contains("not a regular file (a character device)"));
  }
  SECTION("/dev/null") {
    CHECK_THAT(error_of(conf(dir, "null.conf", "Include /dev/null\n")),
               Contains("null.conf:1") && Contains("a character device"));
  }
  SECTION("a directory") {
    CHECK_THAT(error_of(conf(dir, "dir.conf", "Include " + dir.path() + "\n")),
               Contains("dir.conf:1") && Contains("(a directory)"));
  }
  SECTION("a pipe with no writer does not block") {
    REQUIRE(::mkfifo(dir.file("fifo").c_str(), 0600) == 0);
    CHECK_THAT(error_of(conf(dir, "fifo.conf", "Include fifo\n")),
               Contains("fifo.conf:1") && Contains("(a pipe)"));
  }
  SECTION("a huge file") {
    conf(dir, "huge.conf", std::string(2 << 20, '#'));
    CHECK_THAT(error_of(conf(dir, "big.conf", "Include huge.conf\n")),
               Contains("big.conf:1") && Contains("larger than 1 MiB"));
  }
  SECTION("the main config itself must be a regular file") {
    CHECK_THAT(error_of("/dev/zero"), Contains("/dev/zero") && Contains("character device"));
    CHECK_THAT(error_of(dir.path()), Contains("a directory"));
  }
  SECTION("IncludePath (which would redirect Dotconf's own Include) is refused") {
    CHECK_THAT(error_of(conf(dir, "ip.conf", "IncludePath /etc\n")),
               Contains("ip.conf:1: IncludePath is not supported"));
  }
}

TEST_CASE("nested Includes keep working and report their own file:line", "[config][hardening]") {
  pio::test::TempDir dir;
  conf(dir, "inner.conf", "ShowAverages on\n");
  conf(dir, "block.conf", "WorkUnits 3\n");
  conf(dir, "middle.conf", "Include inner.conf\nKeepFiles on\n");
  const auto c = parse_config(conf(
      dir, "ok.conf",
      "Include middle.conf\n<ap_module>\nModuleName null\nInclude block.conf\n</ap_module>\n"));
  CHECK(c.global.show_averages);
  CHECK(c.global.keep_files);
  REQUIRE(c.modules.size() == 1);
  REQUIRE(c.modules[0].module_directives.size() == 1);
  CHECK(c.modules[0].module_directives[0].name == "WorkUnits");
  CHECK_THAT(c.modules[0].module_directives[0].file, Contains("block.conf"));
  CHECK(c.modules[0].module_directives[0].line == 1);
  // The same file included twice (not a cycle) is fine.
  const auto twice =
      parse_config(conf(dir, "twice.conf", "Include inner.conf\nInclude inner.conf\n"));
  CHECK(twice.global.show_averages);
  conf(dir, "bad.conf", "ShowAverages on\nNoSuchThing 1\n");
  CHECK_THAT(error_of(conf(dir, "outer.conf", "TestFile t\nInclude bad.conf\n")),
             Contains("bad.conf:2: unknown directive 'NoSuchThing'"));
}

TEST_CASE("NUL bytes and over-long lines are refused with file:line", "[config][hardening]") {
  pio::test::TempDir dir;
  SECTION("a NUL byte inside a list") {
    CHECK_THAT(error_of(conf(dir, "nul.conf",
                             std::string("TestFile t\n<ap_module>\nModuleName null\nWorkUnits 4") +
                                 std::string(1, '\0') + " 8 16\n</ap_module>\n")),
               Contains("nul.conf:4: a NUL byte in the line"));
  }
  SECTION("a comment longer than Dotconf's buffer whose tail is a directive") {
    // 4107 bytes: Dotconf would split it at 4095 and read "Overwrite on" as a directive.
    const std::string line = "#" + std::string(4094, 'x') + "Overwrite on";
    REQUIRE(line.size() == 4107);
    CHECK_THAT(error_of(conf(dir, "long.conf", "TestFile t\n" + line + "\n")),
               Contains("long.conf:2: the line is longer than 4000 bytes"));
  }
  SECTION("continuation lines joined beyond the limit") {
    std::string text = "TestFile t\nModulePath";
    for (int i = 0; i < 60; ++i)
      text += " " + std::string(80, 'd') + " \\\n";
    text += " end\n";
    CHECK_THAT(error_of(conf(dir, "cont.conf", text)),
               Contains("cont.conf:2: the line is longer than 4000 bytes"));
  }
  SECTION("continuations below the limit keep later line numbers") {
    const auto p = conf(dir, "ok.conf", "ModulePath a \\\n  b\nNoSuch 1\n");
    CHECK_THAT(error_of(p), Contains("ok.conf:3: unknown directive 'NoSuch'"));
  }
  SECTION("a trailing backslash on the last line") {
    CHECK_THAT(error_of(conf(dir, "tail.conf", "TestFile t \\\n")),
               Contains("tail.conf:1") && Contains("no line follows"));
  }
}

TEST_CASE("more words than Dotconf reads on one line are refused, not lumped into one",
          "[config][hardening]") {
  pio::test::TempDir dir;
  std::string dirs;
  for (int i = 0; i < 16; ++i)
    dirs += " d" + std::to_string(i);
  CHECK_THAT(error_of(conf(dir, "many.conf", "TestFile t\nModulePath" + dirs + "\n")),
             Contains("many.conf:2: ModulePath takes at most 15 values on one line"));
  const auto ok =
      parse_config(conf(dir, "ok.conf", "ModulePath" + dirs.substr(0, dirs.rfind(' ')) + "\n"));
  CHECK(ok.global.module_paths.size() == 15);
}

TEST_CASE("bytes that are not UTF-8 are kept as written", "[config][hardening]") {
  pio::test::TempDir dir;
  const std::string text = "# caf\xe9 (Latin-1)\nTestFile t\xe9st.dat\n";
  const auto c = parse_config(conf(dir, "latin1.conf", text));
  CHECK(c.global.test_file == "t\xe9st.dat");
  CHECK(c.text == text);
}

TEST_CASE("values that parse but make no sense are refused", "[config][hardening]") {
  pio::test::TempDir dir;
  const std::string block = "<ap_module>\nModuleName null\n";
  CHECK_THAT(error_of(conf(dir, "a.conf", "StepTimeout nan\n")),
             Contains("a.conf:1: StepTimeout: 'nan' is not a finite number"));
  CHECK_THAT(error_of(conf(dir, "b.conf", block + "ModuleSettleTime 1e20\n</ap_module>\n")),
             Contains("b.conf:3: ModuleSettleTime 1e20 is above the maximum 86400"));
  CHECK_THAT(error_of(conf(dir, "c.conf",
                           block + "ModuleSettleTime 18446744073709551616\n</ap_module>\n")),
             Contains("c.conf:3: ModuleSettleTime 18446744073709551616 is above the maximum"));
  CHECK_THAT(error_of(conf(dir, "d.conf", block + "ModuleReps 4294967296\n</ap_module>\n")),
             Contains("d.conf:3: ModuleReps 4294967296 is above the maximum 1000000"));
  // A module's number directive (b_eff_io's ScheduledTime) is checked the same way.
  pio::harness::ModuleBlock b;
  b.module_directives.push_back({"ScheduledTime", {"inf"}, "e.conf", 7});
  const std::vector<pio::DirectiveSpec> specs = {
      pio::DirectiveSpec{"ScheduledTime", pio::DirectiveType::Real, "60", "seconds"}.at_least(0)};
  try {
    pio::harness::validate_module_directives(b, "beff_io", specs);
    FAIL("ScheduledTime inf was accepted");
  } catch (const ConfigError &e) {
    CHECK_THAT(e.what(), Contains("e.conf:7: ScheduledTime: 'inf' is not a finite number"));
  }
}

TEST_CASE("a value only a module can judge is found before any I/O, in --check too",
          "[config][hardening]") {
  // The pre-flight check (docs/reference/reliability.md) runs every block's init_module before the
  // first block: b_eff_io's makes no shared-pointer probe file there, the pattern block writes
  // nothing, and the tiled block's impossible grid (line 11) ends the run with exit code 2.
  pio::test::TempDir dir;
  const std::string config = "TestFile " + dir.file("t.dat") +
                             "\n<ap_module>\nModuleName beff_io\nSharedPointers on\n"
                             "</ap_module>\n<ap_module>\nModuleName simple_strided\n"
                             "</ap_module>\n<ap_module>\nModuleName tiled\nTiles 3x3\n"
                             "</ap_module>\n";
  const std::string where = "/late.conf:11: Tiles 3x3 makes 9 tiles";
  for (const bool check : {false, true}) {
    pio::harness::RunOptions options;
    options.check_only = check;
    const auto ran = pio::test::run_config_with(dir, "late", config, options);
    INFO("--check " << check << "\n" << ran.out << ran.err);
    CHECK(ran.exit_code == 2);
    CHECK_THAT(ran.err,
               StartsWith("pio-harness: error: config: ") && Contains(where) && Contains("(fix: "));
    CHECK(ran.results.is_null());
    CHECK(!pio::test::exists(dir.file("late.json")));
    CHECK(!pio::test::exists(dir.file("t.dat")));
    CHECK(!pio::test::exists(dir.file("t.dat.beff_io-probe")));
  }
}

TEST_CASE("a global directive set twice, in one file or through Include, names both lines",
          "[config][hardening]") {
  pio::test::TempDir dir;
  SECTION("two ResultsFile lines in one file") {
    CHECK_THAT(error_of(conf(dir, "twice.conf",
                             "ResultsFile a.json\nShowAverages on\nResultsFile b.json\n")),
               Contains("twice.conf:3: ResultsFile is set twice: here and at ") &&
                   Contains("twice.conf:1") && Contains("keep one ResultsFile line"));
  }
  SECTION("one through Include: the included file's line and the including one's") {
    conf(dir, "part.conf", "# a part\nTestFile part.dat\n");
    CHECK_THAT(error_of(conf(dir, "main.conf", "TestFile main.dat\nInclude part.conf\n")),
               Contains("part.conf:2: TestFile is set twice: here and at ") &&
                   Contains("main.conf:1"));
  }
  SECTION("the same value twice loses nothing and is accepted; ModulePath and Hint add up") {
    const auto c = parse_config(conf(dir, "same.conf",
                                     "ShowAverages on\nShowAverages on\nModulePath .\n"
                                     "ModulePath .\nHint a 1\nHint b 2\n"));
    CHECK(c.global.show_averages);
    CHECK(c.global.module_paths.size() == 2);
    CHECK(c.global.hints.size() == 2);
  }
}

TEST_CASE("numbers only in decimal: 0x10 and hexadecimal floats are refused with file:line",
          "[config][hardening]") {
  pio::test::TempDir dir;
  CHECK_THAT(error_of(conf(dir, "hex.conf", "TestFile t\nStepTimeout 0x10\n")),
             Contains("hex.conf:2") && Contains("0x10"));
  CHECK_THAT(error_of(conf(dir, "hexf.conf", "StepTimeout 0x1p4\n")),
             Contains("hexf.conf:1") && Contains("0x1p4"));
  CHECK_THAT(error_of(conf(dir, "hexi.conf",
                           "<ap_module>\nModuleName x\nModuleReps 0x10\n"
                           "</ap_module>\n")),
             Contains("hexi.conf:3") && Contains("0x10"));
  // Decimal forms stay valid.
  const auto c = parse_config(conf(dir, "dec.conf", "StepTimeout 1.5e1\n"));
  CHECK(c.global.step_timeout == 15.0);
}
