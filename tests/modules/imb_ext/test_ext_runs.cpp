// The IMB-EXT family through the harness (IMB 3.2 User Guide §4.2.3, §5): every kernel in both
// modes verified after each sample, the sample counts of aggregate (MSGSPERSAMPLE) and
// non-aggregate (MSGS_NONAGGR) mode, IMB's tables, and a clear failure below 2 processes.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

const std::string kCommon = "MsgLengths 4 64K\nTimeLimit 0\nMsgsPerSample 20\nMsgsNonAggr 7\n"
                            "OverallVolume 256K\n";

std::string block(const std::string &name) {
  return "<ap_module>\nModuleName \"" + name + "\"\n" + kCommon + "</ap_module>\n";
}

} // namespace

TEST_CASE("every IMB-EXT kernel runs verified in both modes", "[imb_ext]") {
  pio::test::TempDir dir;
  const bool two = pio::test::size() >= 2;
  std::string conf = "TestFile " + dir.file("unused") + "\nVerify on\n";
  for (const char *k : {"Unidir_Put", "Unidir_Get", "Bidir_Put", "Bidir_Get", "Accumulate"})
    if (two || std::string(k) == "Accumulate")
      for (const char *mode : {"aggregate", "non-aggregate"})
        conf += block(std::string(k) + " (" + mode + ")");
  conf += block("Window");
  const auto ran = pio::test::run_config(dir, "ext", conf);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    for (const auto &m : ran.run.modules) {
      INFO(m.module << " " << m.label);
      CHECK(!m.error);
      REQUIRE(m.tests.size() >= 2);
      for (const auto &t : m.tests) {
        INFO(t.label);
        CHECK(!t.error);
        REQUIRE(t.reps.size() == 1);
        REQUIRE(t.reps[0].op);
        const bool aggregate = t.params.count("mode") && t.params.at("mode") == "aggregate";
        // n_sample = min(count, max(1, OVERALL_VOL / X)): 20 or 7 at 4 bytes, 4 at 64K.
        const std::int64_t expected = t.buffer_size == 65536 ? 4 : (aggregate ? 20 : 7);
        CHECK(t.comm->ops_per_unit == expected);
        CHECK(t.reps[0].units == 1);
      }
    }
    CHECK(ran.out.find("# Benchmarking Accumulate") != std::string::npos);
    return true;
  }));
}

TEST_CASE("single-transfer one-sided kernels need 2 processes", "[imb_ext]") {
  if (pio::test::size() != 1)
    return;
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "one", "TestFile " + dir.file("unused") + "\n" + block("Unidir_Put"));
  REQUIRE(ran.exit_code != 0);
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.size() == 1);
    REQUIRE(ran.run.modules[0].error);
    CHECK(ran.run.modules[0].error->message.find("needs 2 processes") != std::string::npos);
    return true;
  }));
}
