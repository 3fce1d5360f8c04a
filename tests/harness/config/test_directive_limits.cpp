// Directive limits (DirectiveSpec min / max / max_count, finite numbers, 64-bit fit), enforced
// with file:line for the harness's own directives and for module directives alike.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "load/catalog.hpp"
#include "mpi_test.hpp"
#include "plan/module_directives.hpp"

using Catch::Matchers::Contains;
using pio::DirectiveSpec;
using pio::DirectiveType;
using pio::harness::ConfigError;
using pio::harness::parse_config;

namespace {
/// Parses text as file name in dir; returns "what | hint" of the ConfigError (fails otherwise).
std::string config_error(const pio::test::TempDir &dir, const std::string &name,
                         const std::string &text) {
  pio::test::write_text(dir.file(name), text);
  try {
    parse_config(dir.file(name));
  } catch (const ConfigError &e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  FAIL("expected a ConfigError for " << text);
  return {};
}

/// A one-directive block around line 3: "<ap_module>\nModuleName x\n<line>\n</ap_module>\n".
std::string block_with(const std::string &line) {
  return "<ap_module>\nModuleName x\n" + line + "\n</ap_module>\n";
}

/// Validates one module directive line (m.conf:<n>) against specs; returns "what | hint".
std::string module_error(const std::vector<DirectiveSpec> &specs, const std::string &name,
                         std::vector<std::string> args, int n) {
  pio::harness::ModuleBlock block;
  block.module_directives = {pio::harness::DirectiveLine{name, std::move(args), "m.conf", n}};
  try {
    pio::harness::validate_module_directives(block, "fake", specs);
  } catch (const ConfigError &e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  FAIL("expected a ConfigError for " << name);
  return {};
}

/// The settings for one module directive line, which must be accepted.
pio::Settings module_ok(const std::vector<DirectiveSpec> &specs, const std::string &name,
                        std::vector<std::string> args) {
  pio::harness::ModuleBlock block;
  block.module_directives = {pio::harness::DirectiveLine{name, std::move(args), "m.conf", 1}};
  return pio::harness::validate_module_directives(block, "fake", specs);
}
} // namespace

TEST_CASE("harness directive limits: ModuleReps, ModuleSettleTime, StepTimeout", "[config]") {
  pio::test::TempDir dir;
  SECTION("ModuleReps below, above, past an int and past 64 bits") {
    CHECK_THAT(config_error(dir, "r0.conf", block_with("ModuleReps 0")),
               Contains("r0.conf:3: ModuleReps 0 is below the minimum 1") &&
                   Contains("at least 1 and at most 1000000"));
    CHECK_THAT(config_error(dir, "r1.conf", block_with("ModuleReps 1000001")),
               Contains("r1.conf:3: ModuleReps 1000001 is above the maximum 1000000") &&
                   Contains("write a whole number"));
    CHECK_THAT(config_error(dir, "r2.conf", block_with("ModuleReps 4294967296")),
               Contains("r2.conf:3: ModuleReps 4294967296 is above the maximum 1000000"));
    CHECK_THAT(config_error(dir, "r3.conf", block_with("ModuleReps 18446744073709551616")),
               Contains("r3.conf:3: ModuleReps: '18446744073709551616' does not fit in a 64-bit "
                        "integer") &&
                   Contains("at least 1 and at most 1000000"));
    CHECK_THAT(config_error(dir, "r4.conf", block_with("ModuleReps 2.5")),
               Contains("r4.conf:3: ModuleReps: '2.5' is not an integer"));
  }
  SECTION("ModuleSettleTime below, above, nan, inf, beyond a double") {
    CHECK_THAT(config_error(dir, "s0.conf", block_with("ModuleSettleTime -0.5")),
               Contains("s0.conf:3: ModuleSettleTime -0.5 is below the minimum 0") &&
                   Contains("at least 0 and at most 86400"));
    CHECK_THAT(config_error(dir, "s1.conf", block_with("ModuleSettleTime 86400.5")),
               Contains("s1.conf:3: ModuleSettleTime 86400.5 is above the maximum 86400"));
    CHECK_THAT(config_error(dir, "s2.conf", block_with("ModuleSettleTime nan")),
               Contains("s2.conf:3: ModuleSettleTime: 'nan' is not a finite number") &&
                   Contains("write a finite number"));
    CHECK_THAT(config_error(dir, "s3.conf", block_with("ModuleSettleTime inf")),
               Contains("s3.conf:3: ModuleSettleTime: 'inf' is not a finite number"));
    CHECK_THAT(config_error(dir, "s4.conf", block_with("ModuleSettleTime 1e999")),
               Contains("s4.conf:3: ModuleSettleTime: '1e999' is out of the range"));
  }
  SECTION("StepTimeout must be finite and within a day") {
    CHECK_THAT(config_error(dir, "t0.conf", "TestFile t\nStepTimeout -inf\n"),
               Contains("t0.conf:2: StepTimeout: '-inf' is not a finite number"));
    CHECK_THAT(config_error(dir, "t1.conf", "StepTimeout NaN\n"),
               Contains("t1.conf:1: StepTimeout: 'NaN' is not a finite number"));
    CHECK_THAT(config_error(dir, "t2.conf", "StepTimeout 86401\n"),
               Contains("t2.conf:1: StepTimeout 86401 is above the maximum 86400") &&
                   Contains("at least 0 and at most 86400") && Contains("StepTimeout: seconds"));
    CHECK_THAT(config_error(dir, "t3.conf", "StepTimeout -5\n"),
               Contains("t3.conf:1: StepTimeout -5 is below the minimum 0"));
  }
  SECTION("the limits themselves are accepted") {
    pio::test::write_text(dir.file("ok.conf"),
                          "StepTimeout 86400\n" + block_with("ModuleReps 1000000") +
                              block_with("ModuleSettleTime 86400") + block_with("ModuleReps 1"));
    const auto c = parse_config(dir.file("ok.conf"));
    CHECK(c.global.step_timeout == 86400);
    REQUIRE(c.modules.size() == 3);
    CHECK(c.modules[0].reps == 1000000);
    CHECK(c.modules[1].settle_time == 86400);
    CHECK(c.modules[2].reps == 1);
  }
}

TEST_CASE("harness directives: value counts, scope and the new CsvFile", "[config]") {
  pio::test::TempDir dir;
  CHECK_THAT(config_error(dir, "c1.conf", "TestFile a b\n"),
             Contains("c1.conf:1: TestFile takes one value, got 2"));
  CHECK_THAT(config_error(dir, "c2.conf", "Hint a b c\n"),
             Contains("c2.conf:1") && Contains("Hint takes a key and a value, got 3"));
  CHECK_THAT(config_error(dir, "c3.conf", "ModuleReps 3\n"),
             Contains("c3.conf:1: ModuleReps belongs inside an <ap_module> block"));
  CHECK_THAT(config_error(dir, "c4.conf", block_with("CsvFile x.csv")),
             Contains("c4.conf:3: CsvFile is a global directive"));
  CHECK_THAT(config_error(dir, "c5.conf", "CsvFile\n"),
             Contains("c5.conf:1: CsvFile takes one value, got 0"));
  pio::test::write_text(dir.file("csv.conf"), "CsvFile \"/tmp/a b.csv\"\n");
  CHECK(parse_config(dir.file("csv.conf")).global.csv_file == "/tmp/a b.csv");
}

TEST_CASE("the table's defaults are the config structs' defaults", "[config]") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("empty.conf"),
                        "# nothing\n<ap_module>\nModuleName x\n</ap_module>\n");
  const auto c = parse_config(dir.file("empty.conf"));
  const pio::harness::GlobalConfig g{};
  CHECK(c.global.test_file == g.test_file);
  CHECK(c.global.show_averages == g.show_averages);
  CHECK(c.global.report_open_time == g.report_open_time);
  CHECK(c.global.report_close_time == g.report_close_time);
  CHECK(c.global.report_header_offset == g.report_header_offset);
  CHECK(c.global.sync_writes == g.sync_writes);
  CHECK(c.global.module_paths == g.module_paths);
  CHECK(c.global.results_file == g.results_file);
  CHECK(c.global.csv_file == g.csv_file);
  CHECK(c.global.verify == g.verify);
  CHECK(c.global.collective == g.collective);
  CHECK(c.global.file_view == g.file_view);
  CHECK(c.global.overwrite == g.overwrite);
  CHECK(c.global.keep_files == g.keep_files);
  CHECK(c.global.step_timeout == g.step_timeout);
  CHECK(c.global.hints == g.hints);
  CHECK(g.results_file == "pio-results.json");
  CHECK(g.csv_file.empty());
  REQUIRE(c.modules.size() == 1);
  const pio::harness::ModuleBlock b{};
  CHECK(c.modules[0].reps == b.reps);
  CHECK(c.modules[0].settle_time == b.settle_time);
  CHECK(c.modules[0].test_file.empty()); // the global TestFile applies
  for (const auto &d : pio::harness::harness_directives()) {
    INFO(d.spec.name);
    CHECK(pio::harness::spec_problems(d.spec).empty());
    const bool setting = d.set_setting != nullptr; // a block takes it from the global lines
    CHECK((d.set_global != nullptr || setting) ==
          (d.scope != pio::harness::DirectiveScope::Block && d.spec.name != "Include"));
    CHECK((d.set_block != nullptr || setting) == pio::harness::allowed_in_block(d.scope));
    if (setting) // one setter for both places: none of the others
      CHECK((d.scope == pio::harness::DirectiveScope::Both && !d.set_global && !d.set_block));
  }
}

TEST_CASE("module directive limits are enforced with file:line", "[config]") {
  const std::vector<DirectiveSpec> specs = {
      DirectiveSpec{"Count", DirectiveType::Integer, "", "an int"}.between(1, 2147483647),
      DirectiveSpec{"Block", DirectiveType::Size, "", "a block"}.at_most(2147483648.0),
      DirectiveSpec{"Sizes", DirectiveType::Sizes, "", "sizes", {}, 1, {}, 3},
      DirectiveSpec{"Ratio", DirectiveType::Real, "", "a ratio"}.between(0, 1),
      DirectiveSpec{"Offsets", DirectiveType::Integers, "", "offsets"}.at_least(-8),
      DirectiveSpec{"Names", DirectiveType::Texts, "", "names", {}, {}, {}, 2}};

  SECTION("integers: an int's range via max, 64-bit overflow") {
    CHECK_THAT(module_error(specs, "Count", {"4294967296"}, 4),
               Contains("m.conf:4: Count 4294967296 is above the maximum 2147483647") &&
                   Contains("at least 1 and at most 2147483647") && Contains("Count: an int"));
    CHECK_THAT(module_error(specs, "count", {"0"}, 5),
               Contains("m.conf:5: Count 0 is below the minimum 1"));
    CHECK_THAT(module_error(specs, "Count", {"18446744073709551616"}, 6),
               Contains("m.conf:6: Count: '18446744073709551616' does not fit in a 64-bit "
                        "integer"));
    CHECK_THAT(module_error(specs, "Count", {"-18446744073709551616"}, 6),
               Contains("does not fit in a 64-bit integer"));
    CHECK_THAT(module_error(specs, "Offsets", {"0", "-9"}, 7),
               Contains("m.conf:7: Offsets -9 is below the minimum -8"));
    CHECK(module_ok(specs, "Count", {"2147483647"}).integer("Count") == 2147483647);
    CHECK(module_ok(specs, "Offsets", {"-8", "9223372036854775807"}).integers("Offsets") ==
          std::vector<std::int64_t>{-8, 9223372036854775807LL});
  }
  SECTION("sizes: limits in bytes, 64-bit overflow") {
    CHECK_THAT(module_error(specs, "Block", {"3G"}, 8),
               Contains("m.conf:8: Block 3G is above the maximum 2G (2147483648 bytes)") &&
                   Contains("at most 2G"));
    CHECK_THAT(module_error(specs, "Block", {"2147483649"}, 8),
               Contains("Block 2147483649 is above the maximum 2G"));
    CHECK_THAT(module_error(specs, "Block", {"18446744073709551616"}, 9),
               Contains("m.conf:9: Block: '18446744073709551616' does not fit in 64 bits"));
    CHECK_THAT(module_error(specs, "Block", {"16777216T"}, 9),
               Contains("m.conf:9") && Contains("does not fit in 64 bits"));
    CHECK_THAT(module_error(specs, "Sizes", {"1K", "0"}, 10),
               Contains("m.conf:10: Sizes 0 is below the minimum 1"));
    CHECK(module_ok(specs, "Block", {"2G"}).size("Block") == 2147483648LL);
  }
  SECTION("reals: finite and within limits") {
    for (const std::string bad : {"nan", "NAN", "inf", "-inf", "infinity"})
      CHECK_THAT(module_error(specs, "Ratio", {bad}, 11),
                 Contains("m.conf:11: Ratio: '" + bad + "' is not a finite number"));
    CHECK_THAT(module_error(specs, "Ratio", {"1e999"}, 12),
               Contains("m.conf:12: Ratio: '1e999' is out of the range"));
    CHECK_THAT(module_error(specs, "Ratio", {"1.5"}, 13),
               Contains("m.conf:13: Ratio 1.5 is above the maximum 1") &&
                   Contains("at least 0 and at most 1"));
    CHECK_THAT(module_error(specs, "Ratio", {"-0.25"}, 13),
               Contains("Ratio -0.25 is below the minimum 0"));
    CHECK(module_ok(specs, "Ratio", {"1"}).real("Ratio") == 1);
  }
  SECTION("lists: max_count") {
    CHECK_THAT(module_error(specs, "Sizes", {"1", "2", "3", "4"}, 14),
               Contains("m.conf:14: Sizes takes at most 3 values, got 4") &&
                   Contains("give at most 3 values"));
    CHECK_THAT(module_error(specs, "Names", {"a", "b", "c"}, 15),
               Contains("m.conf:15: Names takes at most 2 values, got 3"));
    CHECK(module_ok(specs, "Sizes", {"1", "2", "3"}).sizes("Sizes").size() == 3);
  }
  SECTION("a module default that breaks its own limits is the module's bug, not a config error") {
    const std::vector<DirectiveSpec> bad_default = {
        DirectiveSpec{"Units", DirectiveType::Integer, "0", "units"}.at_least(1)};
    pio::harness::ModuleBlock block;
    try {
      pio::harness::validate_module_directives(block, "buggy", bad_default);
      FAIL("a default below the minimum was accepted");
    } catch (const ConfigError &) {
      FAIL("a module's default was reported as a config error");
    } catch (const pio::Error &e) {
      CHECK_THAT(std::string(e.what()),
                 Contains("module buggy") && Contains("Units 0 is below the minimum 1"));
    }
  }
}

TEST_CASE("spec_problems finds specs that contradict themselves", "[config]") {
  using pio::harness::spec_problems;
  CHECK(spec_problems(DirectiveSpec{"Ok", DirectiveType::Size, "1M", "x"}.between(1, 1 << 30))
            .empty());
  CHECK_THAT(spec_problems(DirectiveSpec{"F", DirectiveType::Flag, "", "x"}.at_least(1)).at(0),
             Contains("limits on a flag"));
  CHECK_THAT(spec_problems(DirectiveSpec{"R", DirectiveType::Real, "", "x"}.between(2, 1)).at(0),
             Contains("min 2 is above max 1"));
  CHECK_THAT(
      spec_problems(DirectiveSpec{"I", DirectiveType::Integer, "", "x", {}, {}, {}, 3}).at(0),
      Contains("max_count 3"));
  CHECK_THAT(spec_problems(DirectiveSpec{"D", DirectiveType::Integer, "0", "x"}.at_least(1)).at(0),
             Contains("default '0' is refused") && Contains("below the minimum 1"));
}

TEST_CASE("limits are formatted as a user writes them", "[config]") {
  using pio::harness::describe_limits;
  CHECK(describe_limits(DirectiveSpec{"S", DirectiveType::Sizes, "", "x", {}, 4096, 1 << 20, 8}) ==
        "at least 4K and at most 1M; at most 8 values");
  CHECK(describe_limits(DirectiveSpec{"R", DirectiveType::Real, "", "x"}.at_most(0.1)) ==
        "at most 0.1");
  CHECK(describe_limits(DirectiveSpec{"I", DirectiveType::Integer, "", "x"}.at_least(-3)) ==
        "at least -3");
  CHECK(describe_limits(DirectiveSpec{"T", DirectiveType::Text, "", "x"}).empty());
}

TEST_CASE("every built module declares sound directive specs", "[config]") {
  auto catalog = pio::harness::scan_modules({pio::test::module_dir()});
  catalog.open_all(); // a run opens only what its config names
  INFO("modules not loaded: " << catalog.problems.size());
  REQUIRE(!catalog.libraries.empty());
  for (const auto &lib : catalog.libraries)
    for (const auto &m : *lib.modules)
      for (const auto &d : m.directives)
        for (const auto &problem : pio::harness::spec_problems(d))
          FAIL_CHECK(m.name << " (" << lib.path << "): " << problem);
}
