// The Interface directive through the harness (docs/reference/interfaces.md): a Sweep over
// interfaces runs each and labels its blocks apart, the interface recorded in the JSON, the CSV and
// the console; the settings an interface cannot honour are config errors at the line at fault
// before any I/O (exit 2: hints on a posix block, ODirect off posix, a b_eff_io or IMB-IO pattern
// whose capability the backend lacks, named with the pattern); ODirect runs byte-exact on ext4
// (/var/tmp) and fails cleanly on tmpfs and on misaligned transfers.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config_stop.hpp"
#include "layout_checks.hpp"
#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A simple_strided block's lines (its TestFile @DIR@/t), then `extra`.
std::string strided_block(const std::string &extra) {
  return "<ap_module>\n"
         "  ModuleName simple_strided\n"
         "  TestFile \"@DIR@/t\"\n"
         "  BufferSizes 2K\n"
         "  StripSize 1K\n" +
         extra + "</ap_module>\n";
}

/// The rows of a simple CSV file (no quoted commas in the cells read here).
std::vector<std::vector<std::string>> csv_rows(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, ',');)
      cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

} // namespace

TEST_CASE("Sweep Interface mpiio,posix runs both and labels them apart; the interface is in "
          "the JSON, the CSV and the console",
          "[interface_config]") {
  TempDir dir;
  const std::string config = "TestFile \"" + dir.file("unused") +
                             "\"\nVerify on\n<ap_module>\n  ModuleName simple_strided\n"
                             "  TestFile \"" +
                             dir.file("swept") +
                             "\"\n  Mode write\n  BufferSizes 2K\n  StripSize 1K\n"
                             "  WorkUnits 3\n  Sweep Interface mpiio,posix\n</ap_module>\n";
  pio::harness::RunOptions options;
  options.csv_path = dir.file("swept.csv");
  const auto ran = run_config_with(dir, "swept", config, options);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(result_errors(ran.results) == "");
    const auto &m = ran.results["modules"];
    REQUIRE(m.size() == 2);
    // The swept setting first, then what the block sets away from the defaults (its TestFile).
    const std::string file = " TestFile=" + dir.file("swept");
    CHECK(m[0]["label"] == "simple_strided(write) Interface=mpiio" + file);
    CHECK(m[1]["label"] == "simple_strided(write) Interface=posix" + file);
    CHECK(m[0]["interface"] == "mpiio");
    CHECK(m[1]["interface"] == "posix");
    CHECK(m[0]["interface_settings"] == nlohmann::json::object());
    CHECK(m[1]["interface_settings"] == nlohmann::json{{"ODirect", "off"}});
    // Verify on: the posix block read back and checked every byte it wrote.
    CHECK(m[1]["verify"] == "on");
    CHECK(m[1]["tests"][0]["reps"][0]["bytes"] == 3 * 2048 * size());
    CHECK(m[1]["tests"][0]["hints_in_effect"] == nlohmann::json::object());
    CHECK(contains(ran.out, "== [1/2] simple_strided (write) Interface=mpiio TestFile="));
    CHECK(contains(ran.out, "== [2/2] simple_strided (write) Interface=posix TestFile="));
    const auto rows = csv_rows(options.csv_path);
    REQUIRE(rows.size() == 3);
    const auto column = std::find(rows[0].begin(), rows[0].end(), "interface") - rows[0].begin();
    REQUIRE(static_cast<size_t>(column) < rows[0].size());
    CHECK(rows[1].at(static_cast<size_t>(column)) == "mpiio");
    CHECK(rows[2].at(static_cast<size_t>(column)) == "posix");
    return true;
  }));
}

TEST_CASE("a block away from MPI-IO says so in its derived label and on the console",
          "[interface_config]") {
  TempDir dir;
  std::string config = "TestFile \"" + dir.file("unused") + "\"\nInterface posix\n" +
                       strided_block("  Mode read\n") +
                       strided_block("  Mode write\n  Label \"my posix block\"\n");
  // Each block its own file: @DIR@/t, then @DIR@/u.
  const size_t second = config.rfind("@DIR@/t");
  config.replace(second, 7, dir.file("u"));
  config.replace(config.find("@DIR@/t"), 7, dir.file("t"));
  const auto ran = run_config(dir, "derived", config);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &m = ran.results["modules"];
    CHECK(m[0]["label"] == "simple_strided(read) Interface=posix TestFile=" + dir.file("t"));
    CHECK(m[1]["label"] == "my posix block");
    CHECK(m[1]["interface"] == "posix"); // the global Interface line
    // A user's Label does not show the interface: the block header does.
    CHECK(contains(ran.out, "\"my posix block\"  Interface posix  "));
    return true;
  }));
}

TEST_CASE("hints on a posix block are a config error at the Hint line", "[interface_config]") {
  // The block's own Hint line (line 8).
  expect_config_stop("TestFile \"@DIR@/x\"\n" +
                         strided_block("  Interface posix\n  Hint romio_cb_write enable\n"),
                     "bad.conf:8: Hint romio_cb_write applies to the block at ",
                     "which uses Interface posix (set at ");
  // A global Hint line (line 2) reaches a posix block.
  expect_config_stop("TestFile \"@DIR@/x\"\nHint cb_nodes 1\n" +
                         strided_block("  Interface posix\n"),
                     "bad.conf:2: Hint cb_nodes applies",
                     "Interface posix takes no MPI-IO hints (capability hints)");
  // A swept hint (line 8) in a block swept over interfaces.
  expect_config_stop("TestFile \"@DIR@/x\"\n" + strided_block("  Sweep Interface mpiio posix\n"
                                                              "  Sweep Hint:cb_nodes 1\n"),
                     "bad.conf:8: Hint cb_nodes applies", "bad.conf:7)");
}

TEST_CASE("ODirect on another interface than posix is a config error at its line",
          "[interface_config]") {
  expect_config_stop("TestFile \"@DIR@/x\"\nODirect on\n" + strided_block(""),
                     "bad.conf:2: ODirect on applies to the block at ",
                     "which uses Interface mpiio (the default): ODirect is an option of Interface "
#ifdef PIO_HAVE_IO_URING // the backends this build made that declare it
                     "io_uring or posix and asks for O_DIRECT (bypassing the page cache) "
                     "(capability o_direct), which Interface mpiio does not offer");
#else
                     "posix and asks for O_DIRECT (bypassing the page cache) (capability "
                     "o_direct), which Interface mpiio does not offer");
#endif
  expect_config_stop("TestFile \"@DIR@/x\"\n" + strided_block("  Interface hdf5\n  ODirect on\n"),
                     "bad.conf:8: ODirect on applies", "Interface hdf5 (set at ");
}

TEST_CASE("an unknown interface is a config error listing the interfaces", "[interface_config]") {
  expect_config_stop("TestFile \"@DIR@/x\"\n" + strided_block("  Interface pnetcdf\n"),
                     "bad.conf:7: Interface",
#ifdef PIO_HAVE_IO_URING // the backends this build made
                     "Interface 'pnetcdf' is not one of hdf5, io_uring, mpiio, posix");
#else
                     "Interface 'pnetcdf' is not one of hdf5, mpiio, posix");
#endif
}

TEST_CASE("b_eff_io and IMB-IO refuse, at pre-flight, a pattern whose capability the block's "
          "interface lacks, naming the pattern and the capability",
          "[interface_config]") {
  // b_eff_io's type 0 needs collective calls and its strided view, which POSIX has not.
  expect_config_stop("TestFile \"@DIR@/t\"\n<ap_module>\n  ModuleName beff_io\n"
                     "  Definition paper\n  ScheduledTime 3\n  Interface posix\n</ap_module>\n",
                     "bad.conf:6: Interface: beff_io pattern type 0 needs collective transfers "
                     "and MPI file views (capability collective, file_views), which Interface "
                     "posix does not offer",
                     "choose an Interface with collective, file_views");
  // Type 1 alone: shared file pointers, or its strided fallback, neither of which POSIX has.
  expect_config_stop("TestFile \"@DIR@/t\"\n<ap_module>\n  ModuleName beff_io\n"
                     "  Definition paper\n  ScheduledTime 3\n  PatternTypes 1\n"
                     "  Interface posix\n</ap_module>\n",
                     "bad.conf:7: Interface: beff_io pattern type 1 (shared) needs shared file "
                     "pointers (capability shared_pointers), which Interface posix does not offer",
                     "PatternTypes 2 3");
  // Set globally (line 2): the error names that line.
  expect_config_stop("TestFile \"@DIR@/t\"\nInterface posix\n<ap_module>\n"
                     "  ModuleName imb_S_Write_indv\n  MsgLengths 1000\n</ap_module>\n",
                     "bad.conf:2: Interface: imb_s_write_indv (IMB-IO S_Write_indv) needs MPI "
                     "file views (capability file_views), which Interface posix does not offer",
                     "choose an Interface with file_views");
  expect_config_stop("TestFile \"@DIR@/t\"\nInterface posix\n<ap_module>\n"
                     "  ModuleName imb_P_Write_shared\n  MsgLengths 1000\n</ap_module>\n",
                     "bad.conf:2: Interface: imb_p_write_shared (IMB-IO P_Write_shared) needs "
                     "shared file pointers (capability shared_pointers)",
                     "Interface posix does not offer");
}

TEST_CASE("ODirect on ext4: every temporal mode byte-exact with 4 KiB strips",
          "[interface_config][odirect]") {
  TempDir dir("/var/tmp");
  const std::string trace = dir.file("direct.jsonl");
  std::vector<Block> blocks;
  for (const auto &mode : temporal_modes())
    for (const bool collective : {false, true})
      blocks.push_back(Block{"simple_strided", mode, collective, true,
                             "  BufferSizes 8K\n  StripSize 4K\n  WorkUnits 2\n"
                             "  HeaderOffset 4K\n  Interface posix\n  ODirect on\n"
                             "  LayoutTrace \"" +
                                 trace + "\"\n",
                             dir.file("direct-" + mode + (collective ? "-coll" : "-ind"))});
  run_and_check(dir, "direct", config_text(dir, blocks), [&](const nlohmann::json &results) {
    std::string problem;
    const auto traced = read_trace(trace, &problem);
    if (!problem.empty() || traced.size() != blocks.size())
      return "trace: " + problem + " (" + std::to_string(traced.size()) + " tests)";
    for (size_t i = 0; i < blocks.size() && problem.empty(); ++i) {
      if (results["modules"][i]["interface_settings"]["ODirect"] != "on")
        return "ODirect not recorded: " + results["modules"][i]["interface_settings"].dump();
      problem = compare_file(blocks[i].file, traced_image(traced[i]), blocks[i].mode);
    }
    return problem;
  });
}

TEST_CASE("ODirect fails cleanly on tmpfs and on transfers it cannot align",
          "[interface_config][odirect]") {
  struct Case {
    const char *base;
    const char *strips;
    const char *needle;
  };
  for (const Case &c :
       {Case{"/dev/shm", "  BufferSizes 8K\n  StripSize 4K\n",
             "direct.conf:8: ODirect on: the test file "}, // at its line, before any file
        Case{"/var/tmp", "  BufferSizes 2000\n  StripSize 1000\n",
             "offset and length must be multiples of the file system's"}}) {
    TempDir dir(c.base);
    const std::string config = "TestFile \"" + dir.file("unused") + "\"\n" +
                               "<ap_module>\n  ModuleName simple_strided\n  TestFile \"" +
                               dir.file("t") + "\"\n" + c.strips +
                               "  Interface posix\n  ODirect on\n</ap_module>\n";
    const auto ran = run_config(dir, "direct", config);
    const std::string text = ran.err + (ran.results.is_null() ? std::string() : ran.results.dump());
    INFO(c.base << ": " << text);
    REQUIRE(all_ranks(ran.exit_code != 0));
    REQUIRE(all_ranks(rank() != 0 || (contains(text, c.needle) && contains(text, "ODirect off"))));
    // The harness removed the file it created; nothing else was made.
    REQUIRE(all_ranks(!exists(dir.file("t"))));
  }
}
