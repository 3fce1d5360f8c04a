// Sweeps and labels through the harness: a 2x2 sweep of simple_strided runs four blocks, in the
// config's order then the Sweep lines' order, each with a distinct label carrying its settings,
// its hints requested, and its data; duplicate labels stop the run before any I/O.
#include <catch2/catch.hpp>

#include <algorithm>

#include "mpi_test.hpp"

using Catch::Matchers::Contains;
using pio::test::on_root;

TEST_CASE("a 2x2 sweep runs four labelled blocks with their settings", "[sweep]") {
  pio::test::TempDir dir;
  const int n = pio::test::size();
  const auto ran = pio::test::run_config(
      dir, "sweep",
      "TestFile " + dir.file("sweep.dat") + "\nCsvFile " + dir.file("sweep.csv") +
          "\n<ap_module>\nModuleName simple_strided\nMode write\nBufferSizes 4K\nWorkUnits 2\n"
          "Hint romio_cb_write bogus\n"
          "Sweep Hint:cb_buffer_size 64K 1M\nSweep Collective on off\n</ap_module>\n"
          "<ap_module>\nModuleName simple_strided\nMode read\nLabel readback\nBufferSizes 4K\n"
          "WorkUnits 2\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &mods = ran.results.at("modules");
    REQUIRE(mods.size() == 5);
    const char *labels[] = {
        "simple_strided(write) cb_buffer_size=64K Collective=on romio_cb_write=bogus",
        "simple_strided(write) cb_buffer_size=64K Collective=off romio_cb_write=bogus",
        "simple_strided(write) cb_buffer_size=1M Collective=on romio_cb_write=bogus",
        "simple_strided(write) cb_buffer_size=1M Collective=off romio_cb_write=bogus"};
    const char *bytes[] = {"65536", "65536", "1048576", "1048576"};
    for (int i = 0; i < 4; ++i) {
      const auto &m = mods[i];
      CHECK(m.at("label") == labels[i]);
      CHECK(m.at("collective") == (i % 2 == 0));
      CHECK(m.at("settings").at("Hint:cb_buffer_size").at(0) == (i < 2 ? "64K" : "1M"));
      CHECK(m.at("config") == dir.file("sweep.conf") + ":3");
      REQUIRE(m.at("tests").size() == 1);
      const auto &t = m["tests"][0];
      CHECK(t.at("hints_requested").at("cb_buffer_size") == bytes[i]);
      CHECK(t.at("hints_requested").at("romio_cb_write") == "bogus");
      CHECK(t.at("hints_in_effect").at("cb_buffer_size") == bytes[i]);
      CHECK(t.at("reps").at(0).at("bytes") == 2 * 4096 * n);
      CHECK_THAT(ran.out, Contains(std::string("] simple_strided (write)") +
                                   (labels[i] + std::string("simple_strided(write)").size())));
    }
    CHECK(mods[4].at("label") == "readback");
    CHECK_THAT(ran.out, Contains("simple_strided (read)  \"readback\""));
    CHECK(mods[4].at("tests").at(0).at("reps").at(0).at("bytes") == 2 * 4096 * n);
    // romio_cb_write bogus becomes automatic: one warning per block, not per test.
    size_t warnings = 0;
    for (size_t at = ran.err.find("hint romio_cb_write=bogus requested"); at != std::string::npos;
         at = ran.err.find("hint romio_cb_write=bogus requested", at + 1))
      ++warnings;
    CHECK(warnings == 4);
    const auto csv = pio::test::read_bytes(dir.file("sweep.csv"));
    const std::string text(csv.begin(), csv.end());
    for (const char *l : labels)
      CHECK_THAT(text, Contains(std::string(",") + l + ","));
    return mods.size() == 5;
  }));
}

namespace {
/// The cells of a CSV file (no quoted commas in what these tests write), by row.
std::vector<std::vector<std::string>> csv_cells(const std::string &path) {
  const auto bytes = pio::test::read_bytes(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  for (char c : std::string(bytes.begin(), bytes.end())) {
    if (c != '\n') {
      line += c;
      continue;
    }
    rows.emplace_back();
    size_t from = 0;
    for (size_t at; (at = line.find(',', from)) != std::string::npos; from = at + 1)
      rows.back().push_back(line.substr(from, at - from));
    rows.back().push_back(line.substr(from));
    line.clear();
  }
  return rows;
}
} // namespace

TEST_CASE("every swept setting has its own CSV column", "[sweep][csv]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "cols",
      "TestFile " + dir.file("cols.dat") + "\nCsvFile " + dir.file("cols.csv") +
          "\n<ap_module>\nModuleName simple_strided\nMode write\nBufferSizes 4K\n"
          "Sweep WorkUnits 1 2\nSweep SyncWrites on off\nSweep Verify off on\n"
          "Sweep Hint:cb_buffer_size 64K\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto rows = csv_cells(dir.file("cols.csv"));
    REQUIRE(rows.size() == 1 + 8); // header, one repetition of one test per block
    const auto &h = rows[0];
    auto col = [&](const std::string &name) {
      const auto at = std::find(h.begin(), h.end(), name);
      REQUIRE(at != h.end());
      return static_cast<size_t>(at - h.begin());
    };
    const size_t units = col("setting:WorkUnits"), sync = col("sync_writes"),
                 verify = col("verify"), hint = col("hint:cb_buffer_size"),
                 mode = col("setting:Mode");
    for (int i = 0; i < 8; ++i) {
      const auto &r = rows[1 + i];
      CHECK(r.at(units) == (i < 4 ? "1" : "2"));
      CHECK(r.at(sync) == ((i / 2) % 2 == 0 ? "true" : "false"));
      CHECK(r.at(verify) == (i % 2 == 0 ? "off" : "on"));
      CHECK(r.at(hint) == "65536");
      CHECK(r.at(mode) == "write");
    }
    return true;
  }));
}

TEST_CASE("two blocks with the same label stop the run before any I/O", "[sweep]") {
  pio::test::TempDir dir;
  const std::string block =
      "<ap_module>\nModuleName simple_strided\nBufferSizes 4K\n</ap_module>\n";
  const auto ran =
      pio::test::run_config(dir, "dup", "TestFile " + dir.file("dup.dat") + "\n" + block + block);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 2));
  REQUIRE(pio::test::all_ranks(!pio::test::exists(dir.file("dup.dat"))));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err, Contains("dup.conf:6: the blocks at " + dir.file("dup.conf") +
                                 ":2 and here have the same label 'simple_strided(write)'"));
    return ran.err.find("same label") != std::string::npos;
  }));
}

TEST_CASE("a derived label comes from its own block and survives adding blocks", "[sweep]") {
  pio::test::TempDir dir;
  const std::string collective =
      "<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 2\nCollective on\n"
      "</ap_module>\n";
  const std::string plain =
      "<ap_module>\nModuleName \"Simple Strided (read)\"\nBufferSizes 4K\nWorkUnits 3\n"
      "</ap_module>\n";
  const std::string other =
      "<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 3\nSyncWrites on\n"
      "Hint cb_buffer_size 4194304\n</ap_module>\n";
  const auto alone =
      pio::test::run_config(dir, "alone", "TestFile " + dir.file("alone.dat") + "\n" + collective);
  const auto grown = pio::test::run_config(
      dir, "grown", "TestFile " + dir.file("grown.dat") + "\n" + collective + plain + other);
  REQUIRE(pio::test::all_ranks(alone.exit_code == 0 && grown.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &one = alone.results.at("modules");
    const auto &three = grown.results.at("modules");
    REQUIRE(one.size() == 1);
    REQUIRE(three.size() == 3);
    // The same block has the same label whatever else the config holds; module directives
    // (WorkUnits, BufferSizes) name its tests, not the block.
    CHECK(one[0].at("label") == "simple_strided(write) Collective=on");
    CHECK(three[0].at("label") == "simple_strided(write) Collective=on");
    CHECK(three[1].at("label") == "simple_strided(read)");
    CHECK(three[2].at("label") == "simple_strided(write) SyncWrites=on cb_buffer_size=4M");
    return true;
  }));
}

TEST_CASE("blocks of one module that differ only in module directives need a Label", "[sweep]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "apart",
      "TestFile " + dir.file("apart.dat") +
          "\n<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 2\n</ap_module>\n"
          "<ap_module>\nModuleName simple_strided\nBufferSizes 4K\nWorkUnits 3\n</ap_module>\n");
  REQUIRE(pio::test::all_ranks(ran.exit_code == 2));
  REQUIRE(pio::test::all_ranks(!pio::test::exists(dir.file("apart.dat"))));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err, Contains("have the same label 'simple_strided(write)'"));
    CHECK_THAT(ran.err, Contains("a derived label leaves out module directives such as "
                                 "BufferSizes unless swept): give one of them a Label"));
    return ran.err.find("same label") != std::string::npos;
  }));
}
