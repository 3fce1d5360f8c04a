// A block's backend and its options (plan/backend_plan.cpp) through the harness, with the test
// backend testoptions (OptLevel 1..8, OptFixed a|b that cannot be swept, no capabilities): every
// option is checked from the backend's own table at its line, globally and in a block; a line
// naming no option of any backend is unknown; another backend's option is checked and ignored;
// a backend without hints refuses Hint lines; an unknown Interface lists the backends found; a
// module's default interface is used where no Interface line reaches its block. The verdicts
// are reduced over the ranks before REQUIRE.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "mpi_test.hpp"
#include "run/run.hpp"

using namespace pio::test;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Runs config text with the test backend's directory on the module path.
Ran run(const TempDir &dir, const std::string &name, const std::string &text, bool check = false) {
  pio::harness::RunOptions o;
  o.module_dirs = {PIO_TEST_BACKEND_DIR, module_dir()};
  o.check_only = check;
  return run_config_with(dir, name, text, o);
}

/// A null block (no file) with `extra` lines.
std::string null_block(const std::string &extra) {
  return "<ap_module>\n  ModuleName null\n  WorkUnits 2\n" + extra + "</ap_module>\n";
}

/// Expects exit 2 on every rank, rank 0's error holding every part.
void expect_stop(const Ran &ran, const std::vector<std::string> &parts) {
  bool all = ran.exit_code == 2;
  for (const auto &p : parts)
    all = all && (rank() != 0 || contains(ran.err, p));
  INFO(ran.err);
  REQUIRE(all_ranks(all));
}

} // namespace

TEST_CASE("a backend's options are checked from its own table, globally and in a block, and "
          "recorded with the block",
          "[backend_plan]") {
  TempDir dir;
  // Global OptLevel, the block's OptFixed; the defaults fill the rest; a Sweep of OptLevel makes
  // a block per value, shown in the derived labels.
  const auto ran = run(dir, "good",
                       "TestFile \"" + dir.file("t") + "\"\nOptLevel 3\n" +
                           null_block("  Interface testoptions\n  OptFixed b\n") +
                           null_block("  Interface testoptions\n  Sweep OptLevel 1 8\n"));
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.results["modules"];
    REQUIRE(m.size() == 3);
    CHECK(m[0]["interface"] == "testoptions");
    CHECK(m[0]["interface_settings"] == nlohmann::json{{"OptLevel", "3"}, {"OptFixed", "b"}});
    CHECK(m[1]["interface_settings"] == nlohmann::json{{"OptLevel", "1"}, {"OptFixed", "a"}});
    CHECK(m[2]["interface_settings"] == nlohmann::json{{"OptLevel", "8"}, {"OptFixed", "a"}});
    CHECK(m[1]["label"] == "null OptLevel=1 Interface=testoptions");
    CHECK(m[2]["label"] == "null OptLevel=8 Interface=testoptions");
    return m.size() == 3;
  }));
}

TEST_CASE("a backend option's bad value, a name of no backend and an option that cannot be "
          "swept stop the run at their line",
          "[backend_plan]") {
  TempDir dir;
  // Above the limit the backend declares (line 4 of the block).
  expect_stop(run(dir, "limit",
                  "TestFile x\n" + null_block("  Interface testoptions\n  OptLevel 9\n"), true),
              {"limit.conf:6: OptLevel 9 is above the maximum 8", "at most 8; OptLevel: a level"});
  // A global line no backend takes: unknown, listing the globals with the backends' options.
  expect_stop(run(dir, "typo", "TestFile x\nOptLevell 3\n" + null_block(""), true),
              {"typo.conf:2: unknown directive 'OptLevell'", "OptLevel", "ODirect"});
  // Another backend's option in a block of mpiio: checked against that backend's table...
  expect_stop(run(dir, "other", "TestFile x\n" + null_block("  OptFixed c\n"), true),
              {"other.conf:5: OptFixed: ", "'c'"});
  // ... and without effect when its value is good (it asks for no capability).
  const auto ignored = run(dir, "ignored", "TestFile x\n" + null_block("  OptFixed b\n"), true);
  INFO(ignored.err);
  REQUIRE(all_ranks(ignored.exit_code == 0));
  // OptFixed cannot be swept: the Sweep line.
  expect_stop(run(dir, "sweep",
                  "TestFile x\n" + null_block("  Interface testoptions\n  Sweep OptFixed a b\n"),
                  true),
              {"sweep.conf:6: OptFixed cannot be swept"});
}

TEST_CASE("a backend without the hints capability refuses the Hint lines a block gets; an "
          "unknown Interface lists the backends found",
          "[backend_plan]") {
  TempDir dir;
  expect_stop(run(dir, "hint",
                  "TestFile x\nHint cb_nodes 2\n" + null_block("  Interface testoptions\n"), true),
              {"hint.conf:2: Hint cb_nodes applies to the block at ",
               "which uses Interface testoptions (set at ",
               "hint.conf:6): Interface testoptions takes no MPI-IO hints (capability hints)"});
  expect_stop(run(dir, "none", "TestFile x\n" + null_block("  Interface pnetcdf\n"), true),
#ifdef PIO_HAVE_IO_URING // the backends this build made
              {"none.conf:5: Interface 'pnetcdf' is not one of hdf5, io_uring, mpiio, posix, "
               "testoptions"});
#else
              {"none.conf:5: Interface 'pnetcdf' is not one of hdf5, mpiio, posix, testoptions"});
#endif
}

TEST_CASE("a module's default interface is its blocks' where no Interface line reaches them",
          "[backend_plan]") {
  TempDir dir;
  // metadata's default is posix (mdtest's); a global Interface line reaches its block.
  const std::string block = "<ap_module>\n  ModuleName metadata\n  Items 3\n  TestFile \"" +
                            dir.file("md") + "\"\n</ap_module>\n";
  const auto plain = run(dir, "plain", "TestFile x\n" + block);
  const auto global = run(dir, "global", "TestFile x\nInterface mpiio\n" + block);
  INFO(plain.err << global.err);
  REQUIRE(all_ranks(plain.exit_code == 0 && global.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(plain.results["modules"][0]["interface"] == "posix");
    CHECK(plain.results["modules"][0]["label"] == "metadata(easy) TestFile=" + dir.file("md"));
    CHECK(global.results["modules"][0]["interface"] == "mpiio");
    return plain.results["modules"][0]["interface"] == "posix";
  }));
  // A backend without metadata operations: refused by the module at the Interface line.
  expect_stop(
      run(dir, "h5",
          "TestFile x\n" + block.substr(0, block.size() - 13) + "  Interface hdf5\n</ap_module>\n",
          true),
      {"h5.conf:6: Interface: metadata (mdtest's create, stat, read, find and remove) "
       "needs metadata operations",
       "(capability metadata), which Interface hdf5 does not offer"});
}

TEST_CASE("--list-interfaces prints every backend found, its capabilities and its options",
          "[backend_plan]") {
  if (rank() != 0)
    return;
  pio::harness::RunOptions o;
  o.module_dirs = {PIO_TEST_BACKEND_DIR, module_dir()};
  std::ostringstream out;
  REQUIRE(pio::harness::list_interfaces(o, out) == 0);
  const std::string text = out.str();
  INFO(text);
  for (const char *want :
       {"\ntestoptions  (" PIO_TEST_BACKEND_DIR "/test_option_backend.so)",
        "\n  capabilities: none\n  lacks: collective, file_views, individual_pointers, "
        "shared_pointers, non_blocking, split, o_direct, hints, metadata\n",
        "\n    OptLevel           integer     a level [default: 2] [at least 1 and at most 8]\n",
        "(not sweepable)", "\nposix  (",
        "\n  capabilities: individual_pointers, o_direct, metadata\n", "(asks for o_direct)",
        "\nmpiio  (", "\nhdf5  (", "\n    H5ChunkSize "})
    CHECK(contains(text, want));
}
