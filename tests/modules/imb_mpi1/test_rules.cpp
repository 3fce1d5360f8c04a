// The IMB 3.2 User Guide §5 rules as pure functions, against the guide's formulas and examples.
#include <catch2/catch.hpp>

#include <map>

#include "kernel.hpp"
#include "mpi1_kernels.hpp"
#include "schedule.hpp"
#include "settings.hpp"

using namespace imb;

TEST_CASE("default lengths are 0 and 2^MINMSGLOG .. 2^MAXMSGLOG (§5.2.1)", "[imb][rules]") {
  const auto l = log_lengths(0, 22);
  REQUIRE(l.size() == 24);
  CHECK(l[0] == 0);
  CHECK(l[1] == 1);
  CHECK(l[2] == 2);
  CHECK(l[3] == 4);
  CHECK(l.back() == 4194304);
  CHECK(log_lengths(3, 4) == std::vector<std::int64_t>{0, 8, 16});
}

TEST_CASE("reductions run whole floats (§5.2.1 MINMSGLOG unit)", "[imb][rules]") {
  CHECK(kernel_lengths({0, 1, 2, 4, 8, 1000}, 4) == std::vector<std::int64_t>{0, 4, 8, 1000});
  CHECK(kernel_lengths({0, 1, 2, 4}, 1) == std::vector<std::int64_t>{0, 1, 2, 4});
  CHECK(kernel_lengths({5}, 4) == std::vector<std::int64_t>{8});
}

TEST_CASE("-msglen files: one length a line, comments allowed (§5.1.2.9)", "[imb][rules]") {
  CHECK(parse_lengths("# lengths\n0\n1024\n\n64K  # a size\n", "f") ==
        std::vector<std::int64_t>{0, 1024, 65536});
  CHECK_THROWS_WITH(parse_lengths("12\nabc\n", "f"), Catch::Contains("f:2"));
  CHECK_THROWS(parse_lengths("# nothing\n", "f"));
}

TEST_CASE("n_sample = MSGSPERSAMPLE at X = 0, else min(MSGSPERSAMPLE, max(1, OVERALL_VOL / X))",
          "[imb][rules]") {
  const std::int64_t vol = 40 << 20;
  for (std::int64_t x : {0L, 1L, 1024L, 40960L, 65536L, 1048576L, 4194304L, 67108864L}) {
    const std::int64_t guide =
        x == 0 ? 1000 : std::min<std::int64_t>(1000, std::max<std::int64_t>(1, vol / x));
    CHECK(sample_count(x, 1000, vol) == guide);
  }
  CHECK(sample_count(65536, 1000, vol) == 640);
  CHECK(sample_count(4194304, 1000, vol) == 10);
  CHECK(sample_count(67108864, 1000, vol) == 1);
}

TEST_CASE("the run-time limit cuts n_sample to 1 + secs / t, never above the last length's",
          "[imb][rules]") {
  CHECK(probe_count(1000, 1e-6) == 1000);
  CHECK(probe_count(10, 1e-6) == 10);
  CHECK(probe_count(1000, 0.01) == 100);
  CHECK(probe_count(1000, 2.0) == 1);
  CHECK(time_limited_count(1000, 1e-6, 10, 0) == 1000);
  CHECK(time_limited_count(1000, 0.1, 10, 0) == 101);
  CHECK(time_limited_count(1000, 0.1, 10, 50) == 50);
  CHECK(time_limited_count(10, 20.0, 10, 0) == 1);
  CHECK(time_limited_count(640, 0, 10, 0) == 640);
}

TEST_CASE("warm-up: n_sample / 10, at least min(10, n_sample) (§5.2.6)", "[imb][rules]") {
  CHECK(warmup_count(1000) == 100);
  CHECK(warmup_count(640) == 64);
  CHECK(warmup_count(40) == 10);
  CHECK(warmup_count(10) == 10);
  CHECK(warmup_count(3) == 3);
}

TEST_CASE("process counts: P_min, 2 P_min, ... below P, then P (§5.1.1, §5.1.2.2)",
          "[imb][rules]") {
  CHECK(process_counts(11, 2, false) == std::vector<int>{2, 4, 8, 11}); // the guide's P = 11
  CHECK(process_counts(1, 2, false) == std::vector<int>{1});
  CHECK(process_counts(2, 2, false) == std::vector<int>{2});
  CHECK(process_counts(4, 2, false) == std::vector<int>{2, 4});
  CHECK(process_counts(4, 1, false) == std::vector<int>{1, 2, 4});
  CHECK(process_counts(14, 7, false) == std::vector<int>{7, 14});
  CHECK(process_counts(4, 9, false) == std::vector<int>{4}); // P_min > P counts as P
  CHECK(process_counts(4, 1, true) == std::vector<int>{2});  // single transfers: 2 only
  CHECK(process_counts(1, 2, true).empty());
}

TEST_CASE("groups: the first np ranks, or world / np groups with -multi (§5.2.2, §5.1.2.3)",
          "[imb][rules]") {
  CHECK(rank_groups(1, 1, false, 0, 0).color == std::vector<int>{0});
  CHECK(rank_groups(2, 2, false, 0, 0).color == std::vector<int>{0, 0});
  CHECK(rank_groups(4, 2, false, 0, 0).color == std::vector<int>{0, 0, -1, -1});
  CHECK(rank_groups(4, 2, true, 0, 0).color == std::vector<int>{0, 0, 1, 1});
  CHECK(rank_groups(4, 4, true, 0, 0).color == std::vector<int>{0, 0, 0, 0});
  CHECK(rank_groups(4, 1, true, 0, 0).color == std::vector<int>{0, 1, 2, 3});
  CHECK(rank_groups(5, 2, true, 0, 0).color == std::vector<int>{0, 0, 1, 1, -1});
}

TEST_CASE("-map PxQ pairs each rank of one block with its counterpart (§5.1.2.10)",
          "[imb][rules]") {
  // Two nodes of P = 3: Multi-PingPong pairs 0-3, 1-4, 2-5.
  CHECK(rank_groups(6, 2, true, 3, 2).color == std::vector<int>{0, 1, 2, 0, 1, 2});
  std::vector<int> pos;
  for (int w = 0; w < 6; ++w)
    pos.push_back(map_position(w, 3, 2));
  CHECK(pos == std::vector<int>{0, 2, 4, 1, 3, 5});
  CHECK(map_position(5, 1, 6) == 5); // P or Q = 1: identity
}

TEST_CASE("each group's world ranks, as IMB lists them under a Multi- table", "[imb][rules]") {
  CHECK(group_members(rank_groups(4, 2, true, 0, 0), 0, 0) == "0 1;2 3");
  CHECK(group_members(rank_groups(2, 1, true, 0, 0), 0, 0) == "0;1");
  CHECK(group_members(rank_groups(5, 2, true, 0, 0), 0, 0) == "0 1;2 3"); // rank 4 idles
  CHECK(group_members(rank_groups(4, 3, false, 0, 0), 0, 0) == "0 1 2");
  // -map 3x2: the pairs 0-3, 1-4, 2-5 in map order.
  CHECK(group_members(rank_groups(6, 2, true, 3, 2), 3, 2) == "0 3;1 4;2 5");
}

TEST_CASE("-off_cache advances each message two cache lines past the last (§5.1.2.4)",
          "[imb][rules]") {
  const CacheLayout off = cache_layout(1000, 0, 64, 1000);
  CHECK(off.slots == 1);
  CHECK(off.bytes(1000) == 1000);
  const CacheLayout c = cache_layout(1000, 1 << 20, 64, 5000);
  CHECK(c.stride == 1088); // ceil(1000 / 64) * 64 + 64
  CHECK(c.slots == (2 * 1048576 + 1087) / 1088);
  CHECK(c.bytes(1000) >= 2 * 1048576);
  CHECK(cache_layout(1000, 1 << 20, 64, 1000).slots == 1000); // at most n_sample
  CHECK(cache_layout(1 << 20, 1 << 20, 64, 3).slots == 2); // 2 x cache / stride, at most n_sample
  CHECK(cache_layout(1 << 20, 1 << 20, 64, 1).slots == 1);
}

TEST_CASE("Reduce_scatter shares L = r np + s: ranks below s get r + 1 (§3.3.4.2)",
          "[imb][rules]") {
  // L = 10 over 4 ranks: 3 3 2 2.
  CHECK(scatter_share(10, 4, 0).first == 0);
  CHECK(scatter_share(10, 4, 0).count == 3);
  CHECK(scatter_share(10, 4, 1).first == 3);
  CHECK(scatter_share(10, 4, 2).first == 6);
  CHECK(scatter_share(10, 4, 2).count == 2);
  CHECK(scatter_share(10, 4, 3).first == 8);
  CHECK(scatter_share(1, 4, 3).count == 0);
}

namespace {

/// A block's settings as the harness hands them over: the given directives, the defaults of the
/// others (none for the four Methodology decides).
Config config_of(std::map<std::string, std::vector<std::string>> given) {
  for (const auto &d : directives())
    if (!given.count(d.name) && !d.default_value.empty())
      given[d.name] = {d.default_value};
  return read_config(pio::Settings(given));
}

} // namespace

TEST_CASE("Methodology: the guide's defaults, IMB 2019+'s in one line, each overridable",
          "[imb][rules]") {
  const Config guide = config_of({});
  CHECK(guide.methodology == Methodology::Guide32);
  CHECK(guide.root_shift);
  CHECK_FALSE(guide.sync);
  CHECK(guide.split_scatter);
  CHECK(guide.mbytes_unit == "MiB");
  CHECK(methodology_line(guide) ==
        "imb3.2 (root i % np, -sync 0, Reduce_scatter splits L, 2^20 B/s)");

  const Config imb2019 = config_of({{"Methodology", {"imb2019"}}});
  CHECK(imb2019.methodology == Methodology::Imb2019);
  CHECK_FALSE(imb2019.root_shift);
  CHECK(imb2019.sync);
  CHECK_FALSE(imb2019.split_scatter);
  CHECK(imb2019.mbytes_unit == "MB");
  CHECK(methodology_line(imb2019) ==
        "imb2019 (root 0, -sync 1, Reduce_scatter L per rank, 10^6 B/s)");

  // A directive given beside the methodology wins, and the header says what ran.
  const Config mixed = config_of(
      {{"Methodology", {"imb2019"}}, {"RootShift", {"on"}}, {"ReduceScatter", {"split"}}});
  CHECK(mixed.root_shift);
  CHECK(mixed.sync);
  CHECK(mixed.split_scatter);
  CHECK(methodology_line(mixed) ==
        "imb2019 (root i % np, -sync 1, Reduce_scatter splits L, 10^6 B/s)");
  CHECK_FALSE(config_of({{"Sync", {"off"}}, {"Methodology", {"imb2019"}}}).sync);
}

TEST_CASE("Reduce_scatter's recvcounts per methodology: L split (§3.3.4.2) or L per rank (IMB "
          "2019+)",
          "[imb][rules]") {
  // X = 1 KiB: L = 256 floats. The guide reduces 256 floats and gives each of 4 ranks 64;
  // IMB-MPI1 2019+ gives each rank 256 results of a 1024-float vector: 4x the reduction.
  const std::int64_t l = 1024 / 4;
  CHECK(reduce_scatter_counts(l, 4, config_of({}).split_scatter) ==
        std::vector<int>{64, 64, 64, 64});
  CHECK(reduce_scatter_counts(l, 4, config_of({{"Methodology", {"imb2019"}}}).split_scatter) ==
        std::vector<int>{256, 256, 256, 256});
  CHECK(reduce_scatter_counts(10, 4, true) == std::vector<int>{3, 3, 2, 2});
  CHECK(reduce_scatter_counts(10, 4, false) == std::vector<int>{10, 10, 10, 10});
  // The send buffer holds np L floats either way (IMB_mem_manager's s_len for Reduce_scatter).
  const Lengths len = make_reduce_scatter()->lengths(1024, 4);
  CHECK(len.send == 4 * 1024);
  CHECK(len.recv == 1024);
}
