// Sweeps, labels and hint sizes in the config: expansion order, what each expanded block
// carries, and every error with file:line before any module is loaded.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config_helpers.hpp"
#include "mpi_test.hpp"
#include "config/process_counts.hpp"
#include "config/sweep.hpp"
#include "config/values.hpp"

using Catch::Matchers::Contains;
using pio::harness::ConfigError;
using pio::harness::parse_config;
using pio::test::conf;
using pio::test::error_of;

namespace {
std::string block(const std::string &lines) {
  return "<ap_module>\nModuleName simple_strided\n" + lines + "</ap_module>\n";
}
} // namespace

TEST_CASE("hint values accept size suffixes", "[config][sweep]") {
  CHECK(pio::harness::hint_value("16M") == "16777216");
  CHECK(pio::harness::hint_value("4k") == "4096");
  CHECK(pio::harness::hint_value("1048576") == "1048576");
  CHECK(pio::harness::hint_value("enable") == "enable");
  CHECK(pio::harness::hint_value("1e5") == "1e5");
  CHECK(pio::harness::hint_value("") == "");
  pio::test::TempDir dir;
  const auto c = parse_config(
      conf(dir, "h.conf", "Hint cb_buffer_size 16M\n" + block("Hint striping_unit 1M\n")));
  CHECK(c.global.hints.at("cb_buffer_size") == "16777216");
  CHECK(c.modules.at(0).hints.at("striping_unit") == "1048576");
  CHECK(c.modules.at(0).hints.at("cb_buffer_size") == "16777216");
}

TEST_CASE("size ranges in a Sweep double from the first to the last", "[config][sweep]") {
  using V = std::vector<std::string>;
  CHECK(pio::harness::sweep_values({"4K..64K"}) == V{"4K", "8K", "16K", "32K", "64K"});
  CHECK(pio::harness::sweep_values({"1", "3K..10K", "1M"}) == V{"1", "3K", "6K", "1M"});
  CHECK(pio::harness::sweep_values({"1M..1M"}) == V{"1M"});
  CHECK_THROWS_WITH(pio::harness::sweep_values({"64K..4K"}), Contains("empty"));
  CHECK_THROWS_WITH(pio::harness::sweep_values({"0..4K"}), Contains("starts at 0"));
  CHECK_THROWS_WITH(pio::harness::sweep_values({"4X..8K"}), Contains("4X..8K"));
  CHECK_THROWS_WITH(pio::harness::sweep_values({}), Contains("without values"));
}

TEST_CASE("Sweep lines expand into the product, the first line varying slowest",
          "[config][sweep]") {
  pio::test::TempDir dir;
  const auto c =
      parse_config(conf(dir, "s.conf",
                        "Collective on\n" + block("Label first\n") +
                            block("Sweep Hint:cb_buffer_size 1M 4M 16M\nSweep Collective off on\n"
                                  "Sweep BufferSizes 4K..8K\n") +
                            block("Sweep SyncWrites on\n")));
  REQUIRE(c.modules.size() == 1 + 3 * 2 * 2 + 1);
  CHECK(c.modules[0].label == "first");
  CHECK(c.modules[0].label_line == 4);
  CHECK(c.modules[0].swept.empty());
  const char *hints[] = {"1048576", "4194304", "16777216"};
  for (int i = 0; i < 12; ++i) {
    const auto &b = c.modules[1 + i];
    const std::string size = i % 2 ? "8K" : "4K";
    const std::string coll = (i / 2) % 2 ? "on" : "off";
    const std::string hint = i / 4 == 0 ? "1M" : i / 4 == 1 ? "4M" : "16M";
    CHECK(b.line == 6);
    CHECK(b.hints.at("cb_buffer_size") == hints[i / 4]);
    CHECK(b.collective == ((i / 2) % 2 == 1));
    REQUIRE(b.swept.size() == 3);
    CHECK(b.swept[0] == std::make_pair(std::string("Hint:cb_buffer_size"), hint));
    CHECK(b.swept[1] == std::make_pair(std::string("Collective"), coll));
    CHECK(b.swept[2] == std::make_pair(std::string("BufferSizes"), size));
    REQUIRE(b.module_directives.size() == 1);
    CHECK(b.module_directives[0].name == "BufferSizes");
    CHECK(b.module_directives[0].args == std::vector<std::string>{size});
    CHECK(b.module_directives[0].line == 10); // the Sweep line, where the module's spec checks it
    CHECK(b.sweeps.empty());
  }
  CHECK(c.modules.back().sync_writes);
  CHECK(c.modules.back().collective); // the global default where not swept
}

TEST_CASE("Sweep errors name file:line", "[config][sweep]") {
  pio::test::TempDir dir;
  auto err = [&](const std::string &name, const std::string &lines) {
    return error_of(conf(dir, name, "TestFile t\n" + block(lines)));
  };
  CHECK_THAT(err("a.conf", "Sweep\n"), Contains("a.conf:4: Sweep takes one or more values"));
  CHECK_THAT(err("b.conf", "Sweep BufferSizes\n"), Contains("b.conf:4: Sweep without values"));
  CHECK_THAT(err("c.conf", "Sweep Collective on maybe\n"),
             Contains("c.conf:4: Collective: 'maybe' is not on/off"));
  CHECK_THAT(err("d.conf", "Sweep ModuleReps 1 2\n"),
             Contains("d.conf:4: ModuleReps cannot be swept"));
  CHECK_THAT(err("e.conf", "Sweep Hint: 1 2\n"),
             Contains("e.conf:4: Sweep Hint: without a hint key"));
  CHECK_THAT(
      err("f.conf", "Sweep BufferSizes 1K 2K\nSweep buffersizes 4K\n"),
      Contains("f.conf:5: buffersizes is swept twice (also at " + dir.file("f.conf") + ":4)"));
  CHECK_THAT(err("g.conf", "BufferSizes 1K\nSweep BufferSizes 4K 8K\n"),
             Contains("g.conf:5: BufferSizes is both set (at " + dir.file("g.conf") +
                      ":4) and swept here"));
  const std::string hints = " 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n";
  CHECK_THAT(err("h.conf", "Sweep BufferSizes 1K..1M\nSweep Hint:a" + hints + "Sweep Hint:b" +
                               hints + "Sweep Collective on off\n"),
             Contains("h.conf:7: the Sweep lines of this block make more than 4096 blocks"));
  CHECK_THAT(err("j.conf", "Sweep Hint:a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"),
             Contains("j.conf:4: Sweep takes at most 14 values on one line"));
  CHECK_THAT(error_of(conf(dir, "i.conf", "Sweep Collective on off\n")),
             Contains("i.conf:1: Sweep belongs inside an <ap_module> block"));
}

TEST_CASE("Processes counts: all, doubling ranges, counts above the run skipped",
          "[config][sweep][processes]") {
  using V = std::vector<int>;
  auto counts = [](const std::vector<std::string> &words, int size, V expect_skipped) {
    V skipped;
    const V out = pio::harness::process_counts(words, size, skipped);
    CHECK(skipped == expect_skipped);
    return out;
  };
  CHECK(counts({"1..all"}, 6, {}) == V{1, 2, 4, 6});
  CHECK(counts({"1..all"}, 4, {}) == V{1, 2, 4});
  CHECK(counts({"1", "2", "4", "8"}, 4, {8}) == V{1, 2, 4});
  CHECK(counts({"all", "2", "4"}, 2, {4}) == V{2});
  CHECK(counts({"3..10"}, 16, {}) == V{3, 6});
  CHECK(counts({"2..8"}, 4, {8}) == V{2, 4});
  CHECK(counts({"4..all"}, 2, {4}).empty());
  CHECK(counts({"ALL"}, 3, {}) == V{3});
  using pio::harness::check_process_counts;
  CHECK_THROWS_WITH(check_process_counts({"0"}), Contains("'0' is not a count of ranks"));
  CHECK_THROWS_WITH(check_process_counts({"two"}), Contains("'two' is not a count of ranks"));
  CHECK_THROWS_WITH(check_process_counts({"-1"}), Contains("'-1' is not a count of ranks"));
  CHECK_THROWS_WITH(check_process_counts({"all..4"}), Contains("range 'all..4' starts at all"));
  CHECK_THROWS_WITH(check_process_counts({"8..2"}), Contains("range '8..2' is empty"));
  CHECK_NOTHROW(check_process_counts({"1..all", "3", "all"}));
}

TEST_CASE("Processes expands a block per count, outermost, with file:line errors",
          "[config][sweep][processes]") {
  pio::test::TempDir dir;
  auto c = parse_config(conf(dir, "p.conf",
                             block("Sweep Collective on off\nSweep Processes 1 2 8\n") +
                                 block("Processes 2\n") + block("")));
  // Before the run's size is known every block runs on all ranks.
  REQUIRE(c.modules.size() == 4);
  CHECK(c.modules[0].processes == 0);
  CHECK(c.modules[0].processes_line.line == 4);
  CHECK(c.modules[0].processes_line.args == std::vector<std::string>{"1", "2", "8"});
  pio::harness::expand_processes(c, 4);
  REQUIRE(c.modules.size() == 2 * 2 + 1 + 1);
  const int procs[] = {1, 1, 2, 2, 2, 4};
  for (int i = 0; i < 6; ++i)
    CHECK(c.modules[i].processes == procs[i]);
  REQUIRE(c.modules[0].swept.size() == 2);
  CHECK(c.modules[0].swept[0] == std::make_pair(std::string("Processes"), std::string("1")));
  CHECK(c.modules[0].swept[1] == std::make_pair(std::string("Collective"), std::string("on")));
  CHECK(c.modules[3].swept[0] == std::make_pair(std::string("Processes"), std::string("2")));
  CHECK(c.modules[4].swept.empty()); // one count written: a setting, not a sweep
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0] == dir.file("p.conf") + ":4: Processes 8 skipped: the run has 4 processes");

  auto big = parse_config(conf(dir, "q.conf", block("Processes 8 16\n")));
  try {
    pio::harness::expand_processes(big, 2);
    FAIL("no error for counts the run does not have");
  } catch (const ConfigError &e) {
    CHECK_THAT(e.what(), Contains("q.conf:3: Processes: the run has 2 processes, fewer than "
                                  "every count asked for (8 16)"));
    CHECK_THAT(e.hint(), Contains("mpiexec -n 8"));
  }
  CHECK_THAT(error_of(conf(dir, "r.conf", block("Processes 1\nSweep Processes 1 2\n"))),
             Contains("r.conf:4: Processes is given twice in this block (also at " +
                      dir.file("r.conf") + ":3)"));
  CHECK_THAT(error_of(conf(dir, "s.conf", block("Processes 0\n"))),
             Contains("s.conf:3: Processes: '0' is not a count of ranks"));
  CHECK_THAT(error_of(conf(dir, "t.conf", block("Sweep Processes\n"))),
             Contains("t.conf:3: Sweep without values"));
  CHECK_THAT(error_of(conf(dir, "u.conf", "Processes 2\n")),
             Contains("u.conf:1: Processes belongs inside an <ap_module> block"));
}

TEST_CASE("Sweep, Label and ModuleName in an Included fragment keep the fragment's file:line",
          "[config][sweep][include]") {
  pio::test::TempDir dir;
  conf(dir, "frag.conf", "# sweeps\nSweep BufferSizes 1K 2K\nLabel fragment\n");
  auto c = parse_config(conf(dir, "main.conf",
                             "<ap_module>\nModuleName simple_strided\nInclude frag.conf\n"
                             "Sweep Collective on off\n</ap_module>\n"));
  REQUIRE(c.modules.size() == 4);
  for (const auto &b : c.modules) {
    REQUIRE(b.module_directives.size() == 1);
    CHECK(b.module_directives[0].file == dir.file("frag.conf"));
    CHECK(b.module_directives[0].line == 2);
    CHECK(b.label_file == dir.file("frag.conf"));
    CHECK(b.label_line == 3);
    CHECK(b.module_name_file == dir.file("main.conf"));
    CHECK(b.module_name_line == 2);
  }
  conf(dir, "twice.conf", "Sweep BufferSizes 4K\n");
  CHECK_THAT(error_of(conf(dir, "main2.conf",
                           "<ap_module>\nModuleName simple_strided\nSweep BufferSizes 1K\n"
                           "Include twice.conf\n</ap_module>\n")),
             Contains("twice.conf:1: BufferSizes is swept twice (also at " +
                      dir.file("main2.conf") + ":3)"));
  conf(dir, "procs.conf", "\nProcesses 1 2\n");
  CHECK_THAT(error_of(conf(dir, "main3.conf",
                           "<ap_module>\nModuleName simple_strided\nInclude procs.conf\n"
                           "Sweep Processes 4\n</ap_module>\n")),
             Contains("main3.conf:4: Processes is given twice in this block (also at " +
                      dir.file("procs.conf") + ":2)"));
}
