// The IMB-IO layout (IMB 3.2 User Guide §4.2.4), the overlap of §4.2.5.2 and the sample count
// with the run-time limit (§5.2.8, §5.1.2.6) against hand values.
#include <catch2/catch.hpp>

#include "cpu_exploit.hpp"
#include "layout.hpp"
#include "schedule.hpp"

using namespace imb::io;

TEST_CASE("each rank's portion of X in int units, the first ranks one unit more", "[imb_io]") {
  // X = 1000 on 4: 250 units, 62 each, 2 left over: 63 63 62 62 units.
  const std::int64_t first[] = {0, 252, 504, 752}, length[] = {252, 252, 248, 248};
  for (int r = 0; r < 4; ++r) {
    CHECK(rank_portion(r, 4, 1000).first == first[r]);
    CHECK(rank_portion(r, 4, 1000).length == length[r]);
  }
  // X = 1 on 2: rank 0 takes the byte, rank 1 nothing; X = 0: nothing.
  CHECK(rank_portion(0, 2, 1).length == 1);
  CHECK(rank_portion(1, 2, 1).length == 0);
  CHECK(rank_portion(0, 3, 0).length == 0);
  CHECK(rank_portion(0, 1, 4096).length == 4096);
}

TEST_CASE("transfer j lies at j X + first on a common file, j length on a private one",
          "[imb_io]") {
  const Portion p{252, 248};
  CHECK(file_offset(Positioning::Indv, p, 1000, 3) == 3252);
  CHECK(file_offset(Positioning::Expl, p, 1000, 0) == 252);
  CHECK(file_offset(Positioning::Priv, p, 1000, 3) == 744);
}

TEST_CASE("Table 1 lists Open_Close and 36 Read / Write benchmarks", "[imb_io]") {
  const auto b = benchmarks();
  REQUIRE(b.size() == 37);
  CHECK(b[0].name == "Open_Close");
  CHECK(b[1].name == "S_Write_indv");
  CHECK(b.back().name == "C_IRead_shared");
}

TEST_CASE("overlap = (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU)", "[imb_io]") {
  CHECK(overlap(1, 1, 1) == Approx(1)); // perfect: t_ovrl = max
  CHECK(overlap(1, 1, 2) == Approx(0)); // none: t_ovrl = sum
  CHECK(overlap(2, 1, 2.5) == Approx(0.5));
  CHECK(overlap(0, 1, 1) == 0);
}

TEST_CASE("the CPU exploit calibrates to about the desired time", "[imb_io]") {
  CpuExploit cpu;
  const double t = cpu.calibrate(0.02);
  CHECK(cpu.repetitions() >= 1);
  CHECK(cpu.mflops() > 0);
  CHECK(t > 0);
}

TEST_CASE("IMB-IO's n_sample: settings_io.h counts, then the run-time limit of 10 s per sample",
          "[imb_io]") {
  using imb::probe_count;
  using imb::sample_count;
  using imb::time_limited_count;
  // MSGSPERSAMPLE 50 (reads, aggregate writes), MSGS_NONAGGR 10, OVERALL_VOL 16 MiB.
  CHECK(sample_count(0, 50, 16 << 20) == 50);
  CHECK(sample_count(1 << 20, 50, 16 << 20) == 16);
  CHECK(sample_count(16 << 20, 50, 16 << 20) == 1);
  CHECK(sample_count(1 << 20, 10, 16 << 20) == 10);
  // The probe: 1000 operations below 1 ms, else as many as fit in a second, at most n_sample.
  CHECK(probe_count(50, 0.0005) == 50);
  CHECK(probe_count(50, 0.05) == 20);
  CHECK(probe_count(16, 2.0) == 1);
  // 16 writes of 1 MiB at 0.5 s each fit (1 + 10 / 0.5 = 21); at 2 s only 1 + 10 / 2 = 6;
  // never above the previous length's count (4); TimeLimit 1e-9 leaves 1.
  CHECK(time_limited_count(16, 0.5, 10, 0) == 16);
  CHECK(time_limited_count(16, 2.0, 10, 0) == 6);
  CHECK(time_limited_count(16, 2.0, 10, 4) == 4);
  CHECK(time_limited_count(50, 1e-5, 1e-9, 0) == 1);
}
