// A unit's extents out of file order (issue 39, "Wrong placements pass Verify"). The engine puts
// them in file order, each with its stream piece, for a file view (they used to fail every test
// with ROMIO's **iobadoverlap at MPI_File_set_view) and keeps the pattern's order where it makes
// one call per extent; what it cannot reorder (a memory datatype; one rank's extents overlapping
// each other) is refused before any I/O, named. Verify reads each block back at its own offset,
// so an interface that misplaces blocks the same way when writing and reading is caught.
// Modules: permuted_blocks_module.cpp.
#include <catch2/catch.hpp>

#include <string>

#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

constexpr std::int64_t kBlocks = 30, kBlock = 64, kUnits = 2;

/// The file every block of rank r's unit u leaves at its own offset: region u * P + r holds
/// rank r's stamps.
Image permuted_image() {
  const std::int64_t region = kBlocks * kBlock;
  const int ranks = size();
  return {kUnits * ranks * region,
          [region, ranks](std::int64_t o) { return static_cast<int>((o / region) % ranks); }};
}

std::string block(const std::string &module, const std::string &dir_file,
                  const std::string &directives, bool verify = true) {
  return "TestFile \"" + dir_file + "\"\nVerify " + (verify ? "on" : "off") +
         "\nKeepFiles on\n<ap_module>\n  ModuleName " + module + "\n" + directives +
         "</ap_module>\n";
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("extents out of file order land at their offsets in every mode and I/O flavour",
          "[extent_order]") {
  // Independent and collective, through the file view (sorted with their pieces) and without
  // it (one call per extent, in the pattern's order); every byte checked against the image.
  // Write and read make every kind of transfer the other modes make (the view is set per unit
  // alike for each direction).
  run_all_modes(
      "test_permuted_blocks", "  Order shuffled\n", [](const std::string &) { return false; },
      [](const std::string &, int) { return permuted_image(); }, {"write", "read"});
}

TEST_CASE("extents the engine cannot put in file order for a view are refused before any I/O",
          "[extent_order]") {
  struct Case {
    std::string directives, reason;
  };
  const Case cases[] = {
      {"  Order shuffled\n  MemoryGap 8\n",
       "in work unit 0 rank 0's extents are out of file order ([64, 128) after [1536, 1600)) and "
       "its memory is a datatype (Geometry::memory), whose pieces the engine cannot reorder for "
       "the file view"},
      {"  Order overlapping\n",
       "in work unit 0 rank 0's extents [0, 64) and [0, 64) overlap each other: a file view "
       "cannot hold a byte twice"},
  };
  for (const auto &c : cases)
    for (const bool check : {false, true}) {
      INFO(c.directives << (check ? "--check" : "run"));
      TempDir dir;
      pio::harness::RunOptions options;
      options.check_only = check;
      const auto ran = run_config_with(
          dir, "order", block("test_permuted_blocks", dir.file("tf"), c.directives), options);
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code != 0));
      REQUIRE(all_ranks(!exists(dir.file("tf"))));
      REQUIRE(all_ranks(
          rank() != 0 ||
          (has(ran.err, "the geometry of module test_permuted_blocks, test '1920', cannot go "
                        "through a file view (FileView on): " +
                            c.reason) &&
           has(ran.err, "nothing was written (checked before any I/O)") &&
           has(ran.err, "or run the block with FileView off"))));
    }
}

TEST_CASE("without a file view the extents a view refuses run, in the order given",
          "[extent_order]") {
  // The refusal above is the file view's alone: FileView off makes one call per extent.
  TempDir dir;
  const auto ran = run_config(
      dir, "noview",
      block("test_permuted_blocks", dir.file("tf"),
            "  FileView off\n  Order shuffled\n  MemoryGap 8\n  Mode read-modify-write\n"),
      true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0)
    problem = compare_file(dir.file("tf"), permuted_image(), "read-modify-write");
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

TEST_CASE("Verify checks each block at its own offset, not only that reads return what was "
          "written",
          "[extent_order][verify]") {
  // An interface that sends a multi-extent transfer to its extents in file order, its memory in
  // the order given, writes block k at another block's offset and reads it back from there:
  // the read-back equals what was written, the file is wrong.
  for (const std::string mode : {"write", "re-write"}) {
    INFO("Mode " << mode);
    TempDir dir;
    const auto ran = run_config(dir, "misplaced",
                                block("test_misplaced_blocks", dir.file("tf"),
                                      "  Interface posix\n  Order shuffled\n  Mode " + mode + "\n"),
                                true);
    INFO(ran.out << ran.err);
    REQUIRE(all_ranks(ran.exit_code == 1));
    // Stream block 0 of rank 0 belongs at region block 3, [192, 256); the interface put the
    // first block in file order, [0, 64), there.
    REQUIRE(all_ranks(rank() != 0 || (has(ran.err, "verification failed (") &&
                                      has(ran.err, "data read back): rank 0, file offset 192:"))));
  }
}
