// The config (thesis §3.2.3, Tables 3.1-3.3): every directive, and every error path
// naming file, line, the directive and what is accepted.
#include <catch2/catch.hpp>

#include <functional>
#include <set>

#include "config/config.hpp"
#include "config/harness_directives.hpp"
#include "config_helpers.hpp"
#include "mpi_test.hpp"
#include "plan/module_directives.hpp"

using Catch::Matchers::Contains;
using pio::harness::ConfigError;
using pio::harness::parse_config;
using pio::test::conf;
using pio::test::error_of;

TEST_CASE("the thesis Table 3.3 example parses as printed", "[config]") {
  const auto c = parse_config(PIO_SOURCE_DIR "/conf/thesis-example.conf");
  CHECK(c.global.test_file == "/tmp/pio-bench-thesis-example.dat");
  REQUIRE(c.modules.size() == 2);
  CHECK(c.modules[0].module_name == "Simple Strided (write)");
  CHECK(c.modules[0].reps == 100);
  CHECK(c.modules[0].settle_time == 30);
  CHECK(c.modules[1].module_name == "Nested Strided (re-write)");
  CHECK(c.modules[1].reps == 50);
  CHECK(c.modules[1].settle_time == 10);
  CHECK(c.text.find("<ap_module>") != std::string::npos);
}

TEST_CASE("global directives of Table 3.1 and the extensions", "[config]") {
  pio::test::TempDir dir;
  const auto c = parse_config(conf(dir, "g.conf",
                                   "TestFile \"/a b/file\"\nShowAverages\nReportOpenTime on\n"
                                   "ReportCloseTime yes\nReportHeaderOffset true\nSyncWrites 1\n"
                                   "ModulePath /m1 rel\nResultsFile r.json\nVerify on\n"
                                   "Collective on\nFileView off\nOverwrite on\nKeepFiles on\n"
                                   "Hint cb_nodes 2\nStepTimeout 600\nCsvFile r.csv\n"
                                   "<ap_module>\n ModuleName x\n</ap_module>\n"));
  const auto &g = c.global;
  CHECK(g.test_file == "/a b/file");
  CHECK(g.show_averages);
  CHECK(g.report_open_time);
  CHECK(g.report_close_time);
  CHECK(g.report_header_offset);
  CHECK(g.sync_writes);
  CHECK(g.module_paths == std::vector<std::string>{"/m1", "rel"});
  CHECK(g.results_file == "r.json");
  CHECK(g.verify == pio::VerifyMode::Untimed);
  CHECK(g.collective);
  CHECK(!g.file_view);
  CHECK(g.overwrite);
  CHECK(g.keep_files);
  CHECK(g.hints.at("cb_nodes") == "2");
  CHECK(g.step_timeout == 600);
  CHECK(g.csv_file == "r.csv");
}

TEST_CASE("Verify takes off, on and timed, globally and per block", "[config]") {
  pio::test::TempDir dir;
  const auto c = parse_config(
      conf(dir, "v.conf",
           "Verify on\n<ap_module>\n  ModuleName \"Simple Strided (read)\"\n  Verify TIMED\n"
           "</ap_module>\n<ap_module>\n  ModuleName \"Simple Strided (write)\"\n</ap_module>\n"
           "<ap_module>\n  ModuleName \"Simple Strided (write)\"\n  Verify off\n</ap_module>\n"));
  CHECK(c.global.verify == pio::VerifyMode::Untimed);
  REQUIRE(c.modules.size() == 3);
  CHECK(c.modules[0].verify == pio::VerifyMode::Timed);   // any case, as every choice
  CHECK(c.modules[1].verify == pio::VerifyMode::Untimed); // the global value
  CHECK(c.modules[2].verify == pio::VerifyMode::Off);
  CHECK(std::string(pio::to_string(pio::VerifyMode::Timed)) == "timed");
  CHECK(pio::verify_mode("On") == pio::VerifyMode::Untimed);
  CHECK(!pio::verify_mode("yes"));
  // A bad value: file:line, the directive, the words it takes.
  const auto e = error_of(conf(dir, "v2.conf", "TestFile t\nVerify sometimes\n"));
  CHECK_THAT(e, Contains("v2.conf:2") && Contains("Verify") && Contains("'sometimes'") &&
                    Contains("off, on, timed"));
  const auto sweep = error_of(conf(dir, "v3.conf",
                                   "<ap_module>\n  ModuleName \"Simple Strided (read)\"\n"
                                   "  Sweep Verify on never\n</ap_module>\n"));
  CHECK_THAT(sweep, Contains("v3.conf:3") && Contains("Verify") && Contains("never"));
}

TEST_CASE("TimingScope takes unit and phase per block, read as the enum", "[config]") {
  pio::test::TempDir dir;
  const auto c = parse_config(
      conf(dir, "s.conf",
           "<ap_module>\n  ModuleName \"Simple Strided (read)\"\n  TimingScope PHASE\n"
           "</ap_module>\n<ap_module>\n  ModuleName \"Simple Strided (write)\"\n</ap_module>\n"));
  REQUIRE(c.modules.size() == 2);
  CHECK(c.modules[0].timing_scope == pio::TimingScope::Phase); // any case, as every choice
  CHECK(c.modules[1].timing_scope == pio::TimingScope::Unit);  // the default
  CHECK(std::string(pio::to_string(pio::TimingScope::Phase)) == "phase");
  CHECK(pio::timing_scope("Unit") == pio::TimingScope::Unit);
  CHECK(!pio::timing_scope("loop"));
  const auto e = error_of(conf(dir, "s2.conf",
                               "TestFile t\n<ap_module>\n  ModuleName \"Simple Strided (read)\"\n"
                               "  TimingScope loop\n</ap_module>\n"));
  CHECK_THAT(e, Contains("s2.conf:4") && Contains("TimingScope") && Contains("'loop'") &&
                    Contains("unit, phase"));
}

TEST_CASE("blocks take global defaults, override them, and keep their own directives", "[config]") {
  pio::test::TempDir dir;
  const auto c = parse_config(conf(dir, "b.conf",
                                   "<ap_module>\n  ModuleName \"Simple Strided (write)\"\n"
                                   "  ModuleReps 3\n  ModuleSettleTime 0.5\n  Collective off\n"
                                   "  Hint cb_nodes 4\n  Hint romio_ds_write disable\n"
                                   "  BufferSizes 64K 1M\n  TestFile /x/y\n</ap_module>\n"
                                   "Collective on\nVerify on\nHint cb_nodes 2\nHint a b\n"));
  REQUIRE(c.modules.size() == 1);
  const auto &b = c.modules[0];
  CHECK(b.file == dir.file("b.conf"));
  CHECK(b.line == 1);
  CHECK(b.module_name_line == 2);
  CHECK(b.reps == 3);
  CHECK(b.settle_time == 0.5);
  CHECK(!b.collective);                        // the block's own value
  CHECK(b.verify == pio::VerifyMode::Untimed); // the global value, though written after the block
  CHECK(b.test_file == "/x/y");
  CHECK(b.hints.at("cb_nodes") == "4");
  CHECK(b.hints.at("romio_ds_write") == "disable");
  CHECK(b.hints.at("a") == "b");
  REQUIRE(b.module_directives.size() == 1);
  CHECK(b.module_directives[0].name == "BufferSizes");
  CHECK(b.module_directives[0].args == std::vector<std::string>{"64K", "1M"});
  CHECK(b.module_directives[0].line == 8);
}

TEST_CASE("Include reads a file relative to the including file", "[config]") {
  pio::test::TempDir dir;
  conf(dir, "inc.conf", "ShowAverages on\n<ap_module>\nModuleName null\n</ap_module>\n");
  const auto c = parse_config(conf(dir, "main.conf", "TestFile t\nInclude inc.conf\n"));
  CHECK(c.global.show_averages);
  REQUIRE(c.modules.size() == 1);
  CHECK(c.modules[0].module_name == "null");
  CHECK_THAT(c.modules[0].file, Contains("inc.conf"));
}

TEST_CASE("every config error names file, line, directive and what is accepted", "[config]") {
  pio::test::TempDir dir;
  SECTION("unknown global directive") {
    const auto e = error_of(conf(dir, "e1.conf", "TestFile t\n\nTestFiel x\n"));
    CHECK_THAT(e,
               Contains("e1.conf:3") && Contains("TestFiel") && Contains("TestFile, ShowAverages"));
  }
  SECTION("bad flag value") {
    const auto e = error_of(conf(dir, "e2.conf", "ShowAverages maybe\n"));
    CHECK_THAT(e, Contains("e2.conf:1") && Contains("ShowAverages") && Contains("on or off"));
  }
  SECTION("bad ModuleReps") {
    CHECK_THAT(
        error_of(conf(dir, "e3.conf", "<ap_module>\nModuleName x\nModuleReps abc\n</ap_module>\n")),
        Contains("e3.conf:3") && Contains("ModuleReps"));
    CHECK_THAT(
        error_of(conf(dir, "e4.conf", "<ap_module>\nModuleName x\nModuleReps 0\n</ap_module>\n")),
        Contains("e4.conf:3") && Contains("at least 1"));
  }
  SECTION("negative settle time") {
    CHECK_THAT(error_of(conf(dir, "e5.conf",
                             "<ap_module>\nModuleName x\nModuleSettleTime -1\n</ap_module>\n")),
               Contains("e5.conf:3") && Contains("ModuleSettleTime"));
  }
  SECTION("block without ModuleName") {
    CHECK_THAT(
        error_of(conf(dir, "e6.conf", "TestFile t\n<ap_module>\nModuleReps 2\n</ap_module>\n")),
        Contains("e6.conf:2") && Contains("without ModuleName"));
  }
  SECTION("unclosed block") {
    CHECK_THAT(error_of(conf(dir, "e7.conf", "<ap_module>\nModuleName x\n")),
               Contains("e7.conf:1") && Contains("not closed") && Contains("</ap_module>"));
  }
  SECTION("close without open") {
    CHECK_THAT(error_of(conf(dir, "e8.conf", "TestFile t\n</ap_module>\n")),
               Contains("e8.conf:2") && Contains("without an open"));
  }
  SECTION("nested block") {
    CHECK_THAT(error_of(conf(dir, "e9.conf", "<ap_module>\nModuleName x\n<ap_module>\n")),
               Contains("e9.conf:3") && Contains("do not nest"));
  }
  SECTION("global directive inside a block") {
    CHECK_THAT(error_of(conf(dir, "e10.conf",
                             "<ap_module>\nModuleName x\nShowAverages on\n</ap_module>\n")),
               Contains("e10.conf:3") && Contains("global directive"));
  }
  SECTION("negative StepTimeout") {
    CHECK_THAT(error_of(conf(dir, "e15.conf", "StepTimeout -5\n")),
               Contains("e15.conf:1") && Contains("StepTimeout"));
  }
  SECTION("Hint needs key and value") {
    CHECK_THAT(error_of(conf(dir, "e11.conf", "Hint cb_nodes\n")),
               Contains("e11.conf:1") && Contains("Hint") && Contains("<key> <value>"));
  }
  SECTION("missing config file") {
    CHECK_THAT(error_of(dir.file("nope.conf")),
               Contains("nope.conf") && Contains("does not exist"));
  }
  SECTION("Include of a missing file") {
    CHECK_THAT(error_of(conf(dir, "e12.conf", "TestFile t\nInclude missing.conf\n")),
               Contains("e12.conf:2") && Contains("missing.conf"));
  }
  SECTION("bare Include (which crashes Dotconf) is refused") {
    CHECK_THAT(error_of(conf(dir, "e13.conf", "TestFile t\nInclude\n")),
               Contains("e13.conf:2") && Contains("Include without a file name"));
  }
  SECTION("a bare Include inside an included file too") {
    conf(dir, "bad-inc.conf", "ShowAverages on\nInclude\n");
    CHECK_THAT(error_of(conf(dir, "e14.conf", "Include bad-inc.conf\n")),
               Contains("bad-inc.conf:2"));
  }
}

TEST_CASE("module directives are validated against what the module declares", "[config]") {
  using pio::DirectiveType;
  const std::vector<pio::DirectiveSpec> accepted = {
      {"Mode", DirectiveType::Text, "write", "mode", {"write", "read"}},
      {"BufferSizes", DirectiveType::Sizes, "64K", "sizes"},
      {"WorkUnits", DirectiveType::Integer, "16", "units"},
      {"Ratio", DirectiveType::Real, "", "a number"},
      {"Fast", DirectiveType::Flag, "off", "a flag"},
      {"Names", DirectiveType::Texts, "", "names"}};
  pio::harness::ModuleBlock block;
  block.file = "m.conf";
  auto line = [](std::string name, std::vector<std::string> args, int n) {
    return pio::harness::DirectiveLine{std::move(name), std::move(args), "m.conf", n};
  };

  SECTION("values, defaults, canonical names and choices") {
    block.module_directives = {line("buffersizes", {"1K", "2M", "3G"}, 3),
                               line("MODE", {"READ"}, 4), line("Fast", {}, 5),
                               line("Ratio", {"2.5"}, 6)};
    const auto s = pio::harness::validate_module_directives(block, "m", accepted);
    CHECK(s.sizes("BufferSizes") == std::vector<std::int64_t>{1024, 2 << 20, 3LL << 30});
    CHECK(s.text("Mode") == "read");
    CHECK(s.flag("Fast"));
    CHECK(s.real("Ratio") == 2.5);
    CHECK(s.integer("WorkUnits") == 16); // default
    CHECK(!s.has("Names"));              // no default, not given
  }
  SECTION("unknown directive lists what the module accepts") {
    block.module_directives = {line("BufferSize", {"1K"}, 7)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "simple_strided", accepted),
                      Contains("m.conf:7") && Contains("'BufferSize'") &&
                          Contains("simple_strided") && Contains("BufferSizes, WorkUnits"));
  }
  SECTION("bad size, integer, real, choice and value count") {
    block.module_directives = {line("BufferSizes", {"1K", "12Q"}, 8)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "m", accepted),
                      Contains("m.conf:8") && Contains("12Q") && Contains("suffix"));
    block.module_directives = {line("WorkUnits", {"ten"}, 9)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "m", accepted),
                      Contains("m.conf:9") && Contains("not an integer"));
    block.module_directives = {line("Ratio", {"x"}, 10)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "m", accepted),
                      Contains("m.conf:10") && Contains("not a number"));
    block.module_directives = {line("Mode", {"append"}, 11)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "m", accepted),
                      Contains("m.conf:11") && Contains("write, read"));
    block.module_directives = {line("WorkUnits", {"1", "2"}, 12)};
    CHECK_THROWS_WITH(pio::harness::validate_module_directives(block, "m", accepted),
                      Contains("m.conf:12") && Contains("one value"));
  }
  SECTION("a later line wins") {
    block.module_directives = {line("WorkUnits", {"1"}, 3), line("WorkUnits", {"2"}, 4)};
    CHECK(pio::harness::validate_module_directives(block, "m", accepted).integer("WorkUnits") == 2);
  }
}

TEST_CASE("sizes accept K/M/G/T suffixes and reject nonsense", "[config]") {
  CHECK(pio::parse_size("4096") == 4096);
  CHECK(pio::parse_size("64K") == 65536);
  CHECK(pio::parse_size("1m") == 1048576);
  CHECK(pio::parse_size("2G") == 2147483648LL);
  CHECK(pio::parse_size("1T") == 1099511627776LL);
  CHECK(pio::parse_size("8KB") == 8192);
  CHECK_THROWS_WITH(pio::parse_size("-1K"), Contains("negative"));
  CHECK_THROWS_WITH(pio::parse_size("K"), Contains("not a size"));
  CHECK_THROWS_WITH(pio::parse_size("99999999999T"), Contains("64 bits"));
  CHECK(pio::format_size(65536) == "64K");
  CHECK(pio::format_size(1000) == "1000");
}

TEST_CASE("every block setting reaches the blocks from a global line and yields to a block's own",
          "[config]") {
  using pio::BlockSettings;
  struct Case {
    std::string name, global_value, block_value;
    std::function<std::string(const BlockSettings &)> value;
  };
  const auto on = [](bool b) { return std::string(b ? "on" : "off"); };
  const std::vector<Case> cases = {
      {"Verify", "on", "timed", [](const BlockSettings &s) { return to_string(s.verify); }},
      {"Collective", "on", "off", [&](const BlockSettings &s) { return on(s.collective); }},
      {"FileView", "off", "on", [&](const BlockSettings &s) { return on(s.file_view); }},
      {"SyncWrites", "on", "off", [&](const BlockSettings &s) { return on(s.sync_writes); }},
      {"CacheMode", "drop", "keep", [](const BlockSettings &s) { return to_string(s.cache_mode); }},
      {"WarmUpReps", "2", "3",
       [](const BlockSettings &s) { return std::to_string(s.warm_up_reps); }},
      {"Interface", "posix", "hdf5", [](const BlockSettings &s) { return s.interface; }},
      {"Hint", "k 1", "k 2", [](const BlockSettings &s) { return "k " + s.hints.at("k"); }}};
  // The table's block settings are exactly these: a new one needs its case here.
  std::set<std::string> in_table, in_cases;
  for (const auto &d : pio::harness::harness_directives())
    if (d.set_setting)
      in_table.insert(d.spec.name);
  for (const auto &c : cases)
    in_cases.insert(c.name);
  CHECK(in_table == in_cases);

  std::string own, global;
  for (const auto &c : cases) {
    own += "  " + c.name + " " + c.block_value + "\n";
    global += c.name + " " + c.global_value + "\n";
  }
  pio::test::TempDir dir;
  // The global lines come last: a block takes them wherever they are written.
  const auto config =
      parse_config(conf(dir, "s.conf",
                        "<ap_module>\n  ModuleName a\n</ap_module>\n<ap_module>\n  ModuleName b\n" +
                            own + "</ap_module>\n" + global));
  REQUIRE(config.modules.size() == 2);
  for (const auto &c : cases) {
    INFO(c.name);
    CHECK(c.value(config.global) == c.global_value);
    CHECK(c.value(config.modules[0]) == c.global_value);
    CHECK(c.value(config.modules[1]) == c.block_value);
  }
}
