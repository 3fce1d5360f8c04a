// The IMB tables of IMB-EXT, IMB-IO and -multi 1 runs against their approved texts: the MODE
// line of the benchmarks with modes (IMB 3.2 User Guide §6) and every group's rows with a Group
// column under -multi 1 (IMB_output.c, as IMB 2021 prints them).
#include <sstream>

#include <catch2/catch.hpp>

#include "approval.hpp"
#include "report/imb_reporter.hpp"
#include "imb_samples.hpp"
#include "sample_run.hpp"

using pio::harness::ImbReporter;

TEST_CASE("IMB-EXT and IMB-IO tables state their mode (AGGREGATE / NON-AGGREGATE)", "[imb]") {
  std::ostringstream out;
  ImbReporter imb(out);
  pio::test::replay(pio::test::imb_modes_run(), imb);
  CHECK(pio::test::matches_approved("imb_modes.txt", out.str()));
}

TEST_CASE("Multi 1 prints every group's row with a Group column and the groups' ranks", "[imb]") {
  std::ostringstream out;
  ImbReporter imb(out);
  pio::test::replay(pio::test::imb_multi_run(), imb);
  CHECK(pio::test::matches_approved("imb_multi1.txt", out.str()));
}
