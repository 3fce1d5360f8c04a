// Tune and TuneHook (docs/guides/tuning.md): every bad line stops the run (and --check) before any
// I/O at its file:line; an ordinary run ignores the lines; --tune-space prints the checked space;
// --tune sets a trial's values where the lines say, without changing the blocks' labels.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "mpi_test.hpp"

using Catch::Matchers::Contains;
using pio::test::on_root;

namespace {

/// A config of one simple_strided block whose lines are `global` (from line 2) and `in_block`;
/// the block's own lines start at line (global lines + 8).
std::string config(const pio::test::TempDir &dir, const std::string &global,
                   const std::string &in_block) {
  return "TestFile " + dir.file("t.dat") + "\n" + global +
         "<ap_module>\nModuleName simple_strided\nLabel strided\nBufferSizes 64K\nStripSize "
         "4K\nWorkUnits 2\n" +
         in_block + "</ap_module>\n";
}

/// --check of a config: the exit code and what it printed on stderr.
pio::test::Ran check(const pio::test::TempDir &dir, const std::string &global,
                     const std::string &in_block) {
  pio::harness::RunOptions opt;
  opt.check_only = true;
  return pio::test::run_config_with(dir, "t", config(dir, global, in_block), opt);
}

} // namespace

TEST_CASE("a bad Tune or TuneHook line stops the run at its file:line", "[tune]") {
  pio::test::TempDir dir;
  const std::string at = dir.file("t.conf") + ":";
  struct Case {
    std::string global, in_block;
    int line;
    std::string what;
  };
  const Case cases[] = {
      {"", "Tune WorkUnits 0 2\n", 8, "WorkUnits 0 is below the minimum 1"},
      {"", "Tune WorkUnits 0..8\n", 8, "WorkUnits 0 is below the minimum 1"},
      {"", "Tune WorkUnits 8..2\n", 8, "the range 8..2 is empty"},
      {"", "Tune StripSize 4K..4K\n", 8, "holds one size only"},
      {"", "Tune StripSize 4K..64K linear\n", 8, "a size range doubles"},
      {"", "Tune WorkUnits 2..8 quadratic\n", 8, "only a scale may follow"},
      {"", "Tune WorkUnits 4\n", 8, "has one value only"},
      {"", "Tune WorkUnits 4 4\n", 8, "the value '4' is written twice"},
      {"", "Tune Collective on yes\n", 8, "the values on and yes are the same Collective"},
      {"", "Tune Collective 1..4\n", 8, "Collective is a flag directive: a range needs"},
      {"", "Tune ModuleReps 1 2\n", 8, "ModuleReps cannot be tuned"},
      {"", "Tune Stripes 1 2\n", 8, "module simple_strided has no directive Stripes"},
      {"", "Tune Hint: 1 2\n", 8, "Tune Hint: without a hint key"},
      {"", "Tune Collective\n", 8, "Tune Collective without values"},
      {"", "Sweep Collective on off\nTune Collective on off\n", 9,
       "Collective is both swept (at " + at + "8) and tuned here"},
      {"Tune StripSize 4K 8K\n", "", 2, "StripSize is not a harness setting"},
      {"Tune Collective on off\n", "Tune Collective on\n", 9, "has one value only"},
      {"Tune Collective on off\n", "Tune Collective off on\nTune FileView on off\n", 0, ""},
      {"Tune Hint:cb_nodes 1 2\n", "Tune Hint:cb_nodes 1 4\n", 9,
       "Tune Hint:cb_nodes here (1 4) differs from Tune Hint:cb_nodes at " + at + "2 (1 2)"},
      {"TuneHook \"echo {nope}\"\n", "", 2, "TuneHook: {nope} names no Tune line"},
      {"TuneHook \"echo {x\"\n", "", 2, "TuneHook: a '{' without its '}'"},
      {"Tune Hook:x 1 2\n", "", 2, "Hook:x is used by no TuneHook"},
      {"Tune Hook:1x 1 2\n", "", 2, "a hook value's name is letters"},
      {"Tune Hook:x 1 2\nTuneHook \"echo {x} {trial}\"\n", "Tune Interface mpiio posix\n", 0, ""},
  };
  for (const auto &c : cases) {
    INFO(c.global << c.in_block);
    const auto ran = check(dir, c.global, c.in_block);
    if (c.line == 0) {
      CHECK(ran.exit_code == 0);
      CHECK_THAT(ran.out, Contains("the config is valid"));
      continue;
    }
    CHECK(ran.exit_code == 2);
    // The location leads the message; what is wrong follows it.
    const auto where = ran.err.find(at + std::to_string(c.line) + ": ");
    CHECK(where != std::string::npos);
    CHECK(ran.err.find(c.what, where) != std::string::npos);
    CHECK(ran.err.find("(fix: ", where) != std::string::npos);
  }
}

TEST_CASE("an ordinary run ignores the Tune lines and says so", "[tune]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "t", config(dir, "Tune Hint:cb_buffer_size 1M..16M\n", "Tune StripSize 4K..16K\n"));
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(ran.results.at("tuned").empty());
    const auto &m = ran.results.at("modules").at(0);
    CHECK(m.at("label") == "strided");
    CHECK(m.at("settings").at("StripSize") == std::vector<std::string>{"4K"});
    CHECK(m.at("tests").at(0).at("hints_requested").empty());
    CHECK_THAT(ran.err, Contains("the config declares 2 Tune settings (Hint:cb_buffer_size, "
                                 "StripSize): this run uses the config's own values"));
    return true;
  }));
}

TEST_CASE("--tune-space writes the checked space as JSON", "[tune]") {
  pio::test::TempDir dir;
  pio::harness::RunOptions opt;
  opt.check_only = true;
  opt.tune_space_path = dir.file("space.json");
  const auto ran = pio::test::run_config_with(
      dir, "t",
      config(dir,
             "Tune Hint:cb_buffer_size 1M..8M\nTune Collective on off\nTune Hook:stripe 1..8 "
             "linear\nTuneHook \"echo {stripe} {StripSize}\"\n",
             "Tune StripSize 4K 8K 16K\nTune WorkUnits 2..64\n"),
      opt);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    std::ifstream in(dir.file("space.json"));
    const auto space = nlohmann::json::parse(in);
    const auto &p = space.at("params");
    REQUIRE(p.size() == 5);
    CHECK(p[0].at("name") == "Hint:cb_buffer_size");
    CHECK(p[0].at("kind") == "ladder");
    CHECK(p[0].at("values") == std::vector<std::string>{"1M", "2M", "4M", "8M"});
    CHECK(p[0].at("global") == true);
    CHECK(p[0].at("uses").at(0).at("block") == "strided");
    CHECK(p[0].at("uses").at(0).at("default") == "");
    CHECK(p[0].at("uses").at(0).at("declared") == dir.file("t.conf") + ":2");
    CHECK(p[1].at("name") == "Collective");
    CHECK(p[1].at("kind") == "choice");
    CHECK(p[1].at("uses").at(0).at("default") == "off");
    CHECK(p[2].at("name") == "Hook:stripe");
    CHECK(p[2].at("kind") == "integer");
    CHECK(p[2].at("low") == 1);
    CHECK(p[2].at("high") == 8);
    CHECK(p[2].at("log") == false);
    CHECK(p[3].at("name") == "StripSize");
    CHECK(p[3].at("kind") == "choice");
    CHECK(p[3].at("global") == false);
    CHECK(p[3].at("uses").at(0).at("default") == "4K");
    CHECK(p[4].at("name") == "WorkUnits");
    CHECK(p[4].at("log") == true);
    CHECK(p[4].at("uses").at(0).at("default") == "2");
    CHECK(space.at("hooks").at(0).at("names") == std::vector<std::string>{"stripe", "StripSize"});
    CHECK(space.at("blocks").at(0).at("module") == "simple_strided");
    return true;
  }));
}

TEST_CASE("--tune sets a trial's values at the Tune lines, labels unchanged", "[tune]") {
  pio::test::TempDir dir;
  const std::string text = config(dir, "Tune Hint:cb_buffer_size 1M..8M\nTune Collective on off\n",
                                  "Tune StripSize 4K 8K 16K\n");
  pio::harness::RunOptions opt;
  opt.tune_values = {"Hint:cb_buffer_size=4M", "collective=on", "StripSize=16K"};
  const auto ran = pio::test::run_config_with(dir, "t", text, opt);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(ran.results.at("tuned") == nlohmann::json{{"Collective", "on"},
                                                    {"Hint:cb_buffer_size", "4M"},
                                                    {"StripSize", "16K"}});
    const auto &m = ran.results.at("modules").at(0);
    CHECK(m.at("label") == "strided");
    CHECK(m.at("collective") == true);
    CHECK(m.at("settings").at("StripSize") == std::vector<std::string>{"16K"});
    const auto &t = m.at("tests").at(0);
    CHECK(t.at("hints_requested").at("cb_buffer_size") == "4194304");
    CHECK(t.at("params").at("strip_size") == "16384");
    CHECK_THAT(ran.err,
               Contains("tuned (--tune): Collective=on, Hint:cb_buffer_size=4M, StripSize=16K"));
    return true;
  }));
  struct Bad {
    std::string value, what;
  };
  for (const auto &b : std::vector<Bad>{
           {"StripSize=32K", "--tune StripSize=32K: 32K is not among the values of Tune "
                             "StripSize at " +
                                 dir.file("bad.conf") + ":10 (4K 8K 16K)"},
           {"Hint:cb_buffer_size=3M", "3M is not among the values"},
           {"WorkUnits=3", "the config declares no Tune WorkUnits (it declares: "
                           "Hint:cb_buffer_size, Collective, StripSize)"},
           {"Collective", "not NAME=VALUE"}}) {
    pio::harness::RunOptions bad;
    bad.tune_values = {b.value};
    const auto r = pio::test::run_config_with(dir, "bad", text, bad);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(b.what));
  }
}

TEST_CASE("a tuned hint is left out of a block that runs through POSIX", "[tune]") {
  pio::test::TempDir dir;
  const std::string text =
      config(dir, "Tune Interface mpiio posix\nTune Hint:cb_buffer_size 1M 4M\n", "");
  for (const std::string iface : {"posix", "mpiio"}) {
    pio::harness::RunOptions opt;
    opt.tune_values = {"Hint:cb_buffer_size=4M", "Interface=" + iface};
    const auto ran = pio::test::run_config_with(dir, "p" + iface, text, opt);
    REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      const auto &m = ran.results.at("modules").at(0);
      CHECK(m.at("interface") == iface);
      const auto &hints = m.at("tests").at(0).at("hints_requested");
      if (iface == "posix")
        CHECK(hints.empty());
      else
        CHECK(hints.at("cb_buffer_size") == "4194304");
      CHECK(ran.results.at("tuned").at("Hint:cb_buffer_size") == "4M");
      return true;
    }));
  }
}
