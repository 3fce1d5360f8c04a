// b_eff_io without MPI (b_eff_io paper §5.1, Table 2, §5.4): Table 2, the schedule, the plan
// (partitions, tests in the paper's order, patterns, phases and scheduled times), the hint
// directives and the figure computed from typed results built here by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "access.hpp"
#include "beff_math.hpp"
#include "figure.hpp"
#include "hints.hpp"
#include "pio/error.hpp"
#include "plan.hpp"
#include "schedule.hpp"

namespace beff_io = pio::beff_io;

namespace {

constexpr std::int64_t K = 1024, M = 1024 * 1024;

} // namespace

// ------------------------------------------------------------------------------------------
// Table 2, M_PART, the schedule, segment sizes, weights.

TEST_CASE("Table 2 has the paper's rows, U and sum of U", "[beff][math]") {
  const auto t = beff_io::table2(48 * M);
  REQUIRE(t.size() == 43);
  int sum = 0, per_type[5] = {0, 0, 0, 0, 0};
  for (const auto &p : t) {
    sum += p.U;
    per_type[p.type] += p.U;
    if (!p.fill)
      CHECK(p.L % p.l == 0);
  }
  CHECK(sum == 64);
  CHECK(per_type[0] == 22);
  CHECK(per_type[1] == 12);
  CHECK(per_type[2] == 10);
  CHECK(per_type[3] == 10);
  CHECK(per_type[4] == 10);
  CHECK(t[1].l == 48 * M);
  CHECK(t[2].L == 2 * M);
  CHECK(t[6].l == 32 * K + 8);
  CHECK(t[6].L == M + 256);
  CHECK(t[7].L == M + 8 * K);
  CHECK(t[33].fill);
  CHECK(t[42].fill);
  CHECK(t[29].l == K);
  CHECK(t[38].l == K);
  CHECK(t[38].type == 4);
}

TEST_CASE("M_PART, pattern budget and segment size follow §5.1 and §5.4", "[beff][math]") {
  CHECK(beff_io::mpart_for(6 * 1024 * M) == 48 * M);
  CHECK(beff_io::mpart_for(100 * M) == 2 * M);
  CHECK(beff_io::pattern_budget(900, 4, 64) == Approx(18.75));
  CHECK(beff_io::pattern_budget(60, 0, 64) == 0);
  CHECK(beff_io::round_up(1, M) == M);
  CHECK(beff_io::round_up(M, M) == M);
  CHECK(beff_io::segment_size({{M, 3}, {K + 8, 5}}) == 4 * M);
  CHECK(beff_io::segment_size({}) == M);
  // Time per chunk in units: 2/100 and 1/300, mean 0.0116667 -> 2 / 0.0116667 = 171.4 -> 172.
  CHECK(beff_io::segment_repetitions(2, {{100, 2}, {300, 1}}) == 172);
  CHECK(beff_io::segment_repetitions(2, {}) == 1);
  CHECK(beff_io::segment_repetitions(1, {{0, 2}}) == 1);
  // The running schedule: earlier overruns come off the next pattern, within [25 %, 100 %].
  CHECK(beff_io::catch_up_budget(2.0, 0.5) == Approx(1.5));
  CHECK(beff_io::catch_up_budget(2.0, 0.0) == Approx(2.0));
  CHECK(beff_io::catch_up_budget(2.0, -3.0) == Approx(2.0)); // time saved earlier is not spent
  CHECK(beff_io::catch_up_budget(2.0, 5.0) == Approx(0.5));
}

TEST_CASE("the running schedule takes a partition's lag off its next time-driven loop",
          "[beff][math]") {
  beff_io::RunningSchedule s;
  CHECK_FALSE(s.started(2));
  s.start(2, 100.0);
  s.start(2, 105.0); // a later test of the partition does not restart it
  REQUIRE(s.started(2));
  CHECK(s.elapsed(2, 101.5) == Approx(1.5));
  // Loop 1 (2 s scheduled) starts on time: full budget.
  CHECK(s.next_loop(2, 2.0, 2.0, 100.0) == Approx(2.0));
  // Loop 2 starts at 102.5, 0.5 s behind the 2 s scheduled so far: 1.5 s of its 2 s.
  CHECK(s.next_loop(2, 2.0, 2.0, 102.5) == Approx(1.5));
  // A count-driven loop (budget 0) stays count-driven but joins the schedule (now 5 s).
  CHECK(s.next_loop(2, 1.0, 0.0, 110.0) == 0);
  // At 106 the partition is 1 s behind 5 s: 1 s of 2 s. At 120 far behind: a quarter.
  CHECK(s.next_loop(2, 2.0, 2.0, 106.0) == Approx(1.0));
  CHECK(s.next_loop(2, 2.0, 2.0, 120.0) == Approx(0.5));
  // Other partitions keep their own schedule.
  s.start(1, 200.0);
  CHECK(s.next_loop(1, 2.0, 2.0, 200.0) == Approx(2.0));
}

TEST_CASE("type 3/4 segments repeat each chunk as types 0-2 did, rounded up to 1 MB",
          "[beff][math]") {
  const auto table = beff_io::table2(2 * M);
  // Patterns 26 (MPART, U 2), 29 (1K, U 1) and 33 (fill) of type 3.
  const std::vector<beff_io::Pattern> pats = {table[26], table[29], table[33]};
  // Types 0-2 wrote 1K chunks: pattern 5 (type 0, L = 1M: 1024 chunks per unit) 2 units,
  // pattern 21 (type 2) 1000 units. Time per chunk: 2/2048 and 1/1000 -> mean 0.000988 ->
  // 1 / 0.000988 = 1011.9 -> 1012 repetitions of 1K. MPART: nothing measured -> 1.
  const auto seg =
      beff_io::size_segment(pats, table, {{5, 2}, {21, 1000}}, 0, beff_io::Definition::Paper, {});
  REQUIRE(seg.units.size() == 3);
  CHECK(seg.units[0] == 1);
  CHECK(seg.units[1] == 1012);
  CHECK(seg.units[2] == 1);
  CHECK(seg.used == 2 * M + 1012 * K);
  CHECK(seg.size == 3 * M);
  // FixedUnits: every pattern with U > 0 runs that many units.
  const auto fixed = beff_io::size_segment(pats, table, {}, 3, beff_io::Definition::Paper, {});
  CHECK(fixed.units == std::vector<std::int64_t>{3, 3, 1});
  CHECK(fixed.size == 7 * M);
}

TEST_CASE("b_eff_io weights type 0 double and reads 50 %", "[beff][math]") {
  CHECK(beff_io::method_beff({{0, 100}, {1, 10}, {2, 40}, {3, 20}, {4, 30}}) == Approx(50.0));
  CHECK(beff_io::method_beff({{1, 10}, {2, 30}}) == Approx(20.0));
  CHECK(beff_io::method_beff({{0, 30}, {1, 0}}) == Approx(20.0));
  CHECK(beff_io::method_beff({}) == 0);
  CHECK(beff_io::partition_beff(40, 60, 100) == Approx(75.0));
  CHECK(beff_io::phase_label(beff_io::Method::Rewrite, beff_io::table2(2 * M)[14], false) ==
        "rewrite 14 32K+8");
  CHECK(beff_io::phase_label(beff_io::Method::Write, beff_io::table2(2 * M)[3], true) ==
        "write 3 sync");
}

TEST_CASE("the access table: which file, call and positioning each pattern type uses",
          "[beff][access]") {
  using beff_io::Call;
  const auto t0 = beff_io::type_access(0, true);
  CHECK((t0.file == pio::FileUse::Shared && t0.call == Call::Collective && t0.strided_view));
  const auto t1 = beff_io::type_access(1, true);
  CHECK((t1.call == Call::Ordered && !t1.strided_view));
  const auto t1f = beff_io::type_access(1, false); // fallback: individual pointers, same image
  CHECK((t1f.call == Call::Collective && t1f.strided_view));
  const auto t2 = beff_io::type_access(2, true);
  CHECK((t2.file == pio::FileUse::FilePerProcess && t2.call == Call::Independent));
  const auto t3 = beff_io::type_access(3, true);
  CHECK((t3.file == pio::FileUse::Shared && t3.call == Call::Independent && !t3.strided_view));
  const auto t4 = beff_io::type_access(4, true);
  CHECK((t4.file == pio::FileUse::Shared && t4.call == Call::Collective && !t4.strided_view));
  // Pieces of rank 1 of 4: type 0 scatters L = 4 chunks of l per call over the ranks' tiles.
  const beff_io::Pattern p{5, 0, 1024, 4096, 2, "1K"};
  std::vector<std::vector<std::int64_t>> pieces;
  beff_io::for_each_piece(beff_io::Placement{0, 1, 4, 100, 0, 0}, p, 1,
                          [&](std::int64_t b, std::int64_t o, std::int64_t l) {
                            pieces.push_back({b, o, l});
                          });
  // Unit 1 starts after 4 ranks x 4 chunks; chunk k of rank 1 is tile 4*k + 1.
  const std::int64_t u1 = 100 + 4 * 4096;
  CHECK(pieces == std::vector<std::vector<std::int64_t>>{{0, u1 + 1024, 1024},
                                                         {1024, u1 + 5 * 1024, 1024},
                                                         {2048, u1 + 9 * 1024, 1024},
                                                         {3072, u1 + 13 * 1024, 1024}});
  // Segmented: rank 2's fill pattern fills the rest of its segment.
  beff_io::Pattern fill{33, 3, 0, 0, 0, "fill"};
  fill.fill = true;
  pieces.clear();
  beff_io::for_each_piece(beff_io::Placement{3, 2, 4, 0, 1 << 20, 1000}, fill, 0,
                          [&](std::int64_t b, std::int64_t o, std::int64_t l) {
                            pieces.push_back({b, o, l});
                          });
  CHECK(pieces ==
        std::vector<std::vector<std::int64_t>>{{0, 2 * (1 << 20) + 1000, (1 << 20) - 1000}});
}

// ------------------------------------------------------------------------------------------
// Hints.

TEST_CASE("TypeHints and ChunkHints parse per type and chunk, and reject malformed words",
          "[beff][hints]") {
  const auto th = beff_io::parse_type_hints({"0:romio_cb_write=enable", "*:romio_ds_read=disable"});
  CHECK(th.at(0).at("romio_cb_write") == "enable");
  CHECK(th.at(3).at("romio_ds_read") == "disable");
  CHECK(th.at(3).count("romio_cb_write") == 0);
  CHECK_THROWS_AS(beff_io::parse_type_hints({"0:novalue"}), pio::Error);
  CHECK_THROWS_AS(beff_io::parse_type_hints({"romio_cb_write=enable"}), pio::Error);
  const auto ch = beff_io::parse_chunk_hints({"0:1K:cb_buffer_size=1048576", "*:MPART:a=b"});
  REQUIRE(ch.size() == 2);
  const auto table = beff_io::table2(2 * M);
  const auto t0 = beff_io::chunk_hints_for(0, {table[1], table[5], table[7]}, ch);
  CHECK(t0.at("1K").at("cb_buffer_size") == "1048576");
  CHECK(t0.at("MPART").at("a") == "b");
  CHECK(t0.count("1K+8") == 0);
  const auto t2 = beff_io::chunk_hints_for(2, {table[18], table[21]}, ch);
  CHECK(t2.count("1K") == 0);
  CHECK(beff_io::describe_chunk_hints(t0) == "1K:cb_buffer_size=1048576 MPART:a=b");
  CHECK_THROWS_AS(beff_io::parse_chunk_hints({"0:1K"}), pio::Error);
}

// ------------------------------------------------------------------------------------------
// The plan.

namespace {

beff_io::PlanInput plan_input() {
  beff_io::PlanInput in;
  in.processes = 4;
  in.scheduled_time = 90;
  in.node_memory = 1024 * M;
  in.memory_source = "test";
  in.processes_per_node = {{1, 1}, {4, 4}};
  in.max_file_size = 0;
  in.positioning = "shared file pointers";
  in.definition = beff_io::Definition::Paper; // these tests check the paper definition's plan
  in.rewrite_all = true;
  in.repeat_exactly = false;
  return in;
}

} // namespace

TEST_CASE("plan: the full Table 2 per partition, methods in the paper's order", "[beff][plan]") {
  auto in = plan_input();
  in.partitions = {1, 4, 1};
  const auto plan = beff_io::make_plan(in);
  CHECK(plan.all_patterns);
  CHECK(plan.partitions == std::vector<int>{1, 4});
  REQUIRE(plan.tests.size() == 30); // 2 partitions x 3 methods x 5 types
  // §5.1: per partition, every type's write, then every rewrite, then every read.
  for (size_t i = 0; i < plan.tests.size(); ++i) {
    const auto &t = plan.tests[i];
    CHECK(t.procs == (i < 15 ? 1 : 4));
    CHECK(static_cast<size_t>(t.method) == (i % 15) / 5);
    CHECK(static_cast<size_t>(t.type) == i % 5);
    CHECK(t.spec.label == "P" + std::to_string(t.procs) + " type " + std::to_string(t.type) + " " +
                              beff_io::method_name(t.method));
    CHECK(t.spec.groups.color == std::vector<int>(static_cast<size_t>(t.procs), 0));
    CHECK(t.spec.file_suffix == ".type" + std::to_string(t.type));
    CHECK(t.spec.file == (t.type == 2 ? pio::FileUse::FilePerProcess : pio::FileUse::Shared));
    CHECK(t.spec.keep_file == (t.method != beff_io::Method::Read));
    CHECK(t.spec.amode == (MPI_MODE_RDWR | MPI_MODE_CREATE));
    CHECK(t.sum_u == 64);
    CHECK(t.spec.params.at("access_method") == beff_io::method_name(t.method));
    CHECK(t.spec.params.at("sum_U") == "64");
  }
  // M_PART by definition: 1 GiB per process / 128 = 8 MiB on P1, 256 MiB / 128 = 2 MiB on P4.
  CHECK(plan.tests[0].mpart == 8 * M);
  CHECK(plan.tests[15].mpart == 2 * M);
  CHECK(plan.tests[0].mpart_by_definition);
  CHECK(plan.tests[1].spec.params.at("positioning") == "shared file pointers");
}

TEST_CASE("plan: patterns, phases, budgets T/3*U/sumU and the MaxFileSize cap", "[beff][plan]") {
  auto in = plan_input();
  in.types = {0, 2, 3};
  in.numbers = {0, 1, 5, 18, 21, 26, 33};
  in.max_file_size = 64 * M;
  const auto plan = beff_io::make_plan(in);
  CHECK_FALSE(plan.all_patterns);
  REQUIRE(plan.tests.size() == 9);
  // sum U = 4 (1) + 2 (5) + 2 (18) + 1 (21) + 2 (26) = 11; M_PART = 256 MiB / 128 = 2 MiB.
  const auto &w0 = plan.tests[0];
  CHECK(w0.type == 0);
  CHECK(w0.sum_u == 11);
  REQUIRE(w0.patterns.size() == 3);
  CHECK(w0.patterns[1].number == 1);
  CHECK(w0.patterns[1].l == 2 * M);
  // Write: each pattern's loop, then its sync.
  REQUIRE(w0.phases.size() == 6);
  REQUIRE(w0.spec.phases.size() == 6);
  const std::vector<std::string> labels = {"write 0 1M",   "write 0 sync", "write 1 MPART",
                                           "write 1 sync", "write 5 1K",   "write 5 sync"};
  for (size_t k = 0; k < 6; ++k) {
    CHECK(w0.spec.phases[k].label == labels[k]);
    CHECK(w0.phases[k].sync == (k % 2 == 1));
    CHECK(w0.phases[k].pattern == k / 2);
  }
  // U = 0 and syncs are count-driven; the others T/3*U/sumU = 30*U/11 s.
  CHECK(w0.spec.phases[0].time_budget_s == 0);
  CHECK(w0.spec.phases[1].time_budget_s == 0);
  CHECK(w0.spec.phases[2].time_budget_s == Approx(30.0 * 4 / 11));
  CHECK(w0.phases[2].nominal == Approx(30.0 * 4 / 11));
  CHECK(w0.spec.phases[4].time_budget_s == Approx(30.0 * 2 / 11));
  // The cap (file_cap): reserved are one unit of every pattern on 4 ranks: 0 (4 x 1M), 1
  // (4 x 2M), 5 (4 x 1M), 18 (4 x 2M), 21 (4 x 1K), 26 (4 x 2M), 33 (fill: 0) and 4 x 1 MB
  // for the rounding of type 3's segment = 36M + 4K; the other 28M - 4K go by U (sum 11):
  // pattern 1: 1 + floor((28M - 4K) * 4 / 11 / 8M) = 2; pattern 5: 1 + floor(.. * 2 / 11 / 4M)
  // = 2.
  const double extra = 28.0 * M - 4 * K;
  CHECK(w0.spec.phases[2].max_work_units ==
        1 + static_cast<std::int64_t>(extra * 4 / 11 / (8 * M)));
  CHECK(w0.spec.phases[2].max_work_units == 2);
  CHECK(w0.spec.phases[4].max_work_units == 2);
  // Type 3 is size-driven: no budgets.
  const auto &w3 = plan.tests[2];
  CHECK(w3.type == 3);
  for (const auto &ph : w3.spec.phases)
    CHECK(ph.time_budget_s == 0);
  // Rewrite (time-driven, no cap) and read (no syncs).
  const auto &r0 = plan.tests[3];
  CHECK(r0.method == beff_io::Method::Rewrite);
  CHECK(r0.spec.phases[2].time_budget_s == Approx(30.0 * 4 / 11));
  CHECK(r0.spec.phases[2].max_work_units == 0);
  const auto &d2 = plan.tests[7];
  CHECK(d2.method == beff_io::Method::Read);
  CHECK(d2.type == 2);
  REQUIRE(d2.spec.phases.size() == 2);
  CHECK(d2.spec.phases[0].label == "read 18 MPART");
  CHECK(d2.spec.phases[1].label == "read 21 1K");
}

TEST_CASE("plan: ReadRewrite count, FixedUnits, MPart and errors", "[beff][plan]") {
  auto in = plan_input();
  in.types = {0};
  in.numbers = {3};
  in.repeat_exactly = true;
  auto plan = beff_io::make_plan(in);
  REQUIRE(plan.tests.size() == 3);
  CHECK(plan.tests[0].spec.phases[0].time_budget_s == Approx(30.0));
  CHECK(plan.tests[1].spec.phases[0].time_budget_s == 0); // rewrite repeats the write's units
  CHECK(plan.tests[2].spec.phases[0].time_budget_s == 0);
  in.repeat_exactly = false;
  in.fixed_units = 2;
  in.mpart = 64 * K;
  plan = beff_io::make_plan(in);
  CHECK(plan.tests[0].spec.phases[0].time_budget_s == 0);
  CHECK(plan.tests[0].mpart == 64 * K);
  CHECK_FALSE(plan.tests[0].mpart_by_definition);
  CHECK(plan.tests[0].spec.params.at("mpart_by_definition") == "no");
  in.mpart = std::int64_t(4) << 30; // above one MPI call: capped, not by definition
  plan = beff_io::make_plan(in);
  CHECK(plan.tests[0].mpart == std::int64_t(1) << 30);
  in.partitions = {8};
  CHECK_THROWS_AS(beff_io::make_plan(in), pio::Error);
  in.partitions = {};
  in.numbers = {9}; // a type 1 pattern, but only type 0 selected
  CHECK_THROWS_AS(beff_io::make_plan(in), pio::Error);
  CHECK(beff_io::partitions_of(4, {}) == std::vector<int>{4});
}

// ------------------------------------------------------------------------------------------
// The figure, from typed results built by hand.

namespace {

pio::PhaseResult phase(double mib, double t) {
  pio::PhaseResult p;
  p.units = 1;
  p.bytes = static_cast<std::int64_t>(mib * M);
  p.aggregate_time_s = t;
  p.elapsed_time_s = t;
  return p;
}

/// A block's typed results and the module's knowledge of each test, built by hand.
struct FakeModule {
  pio::ModuleResult mod;
  std::vector<beff_io::FigureTest> tests;

  /// Adds a partition's 15 tests, method-major as the module runs them: per pattern type one
  /// pattern (number type*9, 1M), `mib` MiB per method (`mib0` for type 0), open and close
  /// 0.25 s each. Write 1.5 s plus its sync (type 1's takes type1_sync), rewrite 2.0 s plus its
  /// sync, read 0.5 s.
  void add_partition(int procs, double mib0, double mib, double type1_sync) {
    for (beff_io::Method m : beff_io::all_methods())
      for (int type = 0; type < 5; ++type) {
        const int n = type * 9;
        const double v = type == 0 ? mib0 : mib;
        beff_io::FigureTest meta{procs, type, m, {{n, "1M", false}}};
        pio::Repetition rep;
        rep.open_time_s = 0.25;
        rep.close_time_s = 0.25;
        if (m == beff_io::Method::Write) {
          rep.phases = {phase(v, 1.5), phase(0, type == 1 ? type1_sync : 0.0)};
          meta.phases.push_back({n, "1M", true});
        } else if (m == beff_io::Method::Rewrite) {
          rep.phases = {phase(v, 2.0), phase(0, 0)};
          meta.phases.push_back({n, "1M", true});
        } else {
          rep.phases = {phase(v, 0.5)};
        }
        pio::TestResult t;
        t.index = static_cast<int>(tests.size());
        t.reps = {rep};
        mod.tests.push_back(t);
        tests.push_back(meta);
      }
  }
};

double value(const pio::Figure &f, const std::string &name) {
  for (const auto &v : f.values)
    if (v.name == name)
      return v.value;
  FAIL("no figure value " << name);
  return 0;
}

const pio::FigureTable &table(const pio::Figure &f, const std::string &name) {
  for (const auto &t : f.tables)
    if (t.name == name)
      return t;
  throw pio::Error("no figure table " + name);
}

/// The cell of `row` under `column`.
const pio::Cell &cell(const pio::FigureTable &t, const std::vector<pio::Cell> &row,
                      const std::string &column) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i] == column)
      return row.at(i);
  throw pio::Error("no column " + column + " in " + t.name);
}

double number(const pio::Cell &c) {
  if (const auto *d = std::get_if<double>(&c))
    return *d;
  if (const auto *i = std::get_if<std::int64_t>(&c))
    return static_cast<double>(*i);
  throw pio::Error("not a number: " + std::get<std::string>(c));
}

bool has_note(const pio::Figure &f, const std::string &part) {
  for (const auto &n : f.notes)
    if (n.find(part) != std::string::npos)
      return true;
  return false;
}

} // namespace

TEST_CASE("figure: bytes over open-to-close time per method, weights, maximum over partitions",
          "[beff][figure]") {
  // Partition 2: type 0 moves 20 MiB per method, the others 10 MiB; type 1's write sync takes
  // 0.5 s. Each test's open and close add 0.5 s to its own method: write 1.5 + 0.5 (+ sync),
  // rewrite 2.0 + 0.5, read 0.5 + 0.5. Partition 1: 1 MiB per method -> write 1/2 = 0.5,
  // rewrite 1/2.5 = 0.4, read 1/1 = 1 MiB/s for every type.
  FakeModule fake;
  fake.add_partition(2, 20, 10, 0.5);
  fake.add_partition(1, 1, 1, 0.0);
  beff_io::FigureFacts facts;
  facts.definition = beff_io::Definition::Paper;
  facts.scheduled_time_s = 60;
  facts.wall_time_s = {{2, 63.0}}; // partition 2 took 63 s of wall time (T = 60 s: +5 %)
  facts.positioning_type1 = "individual file pointers (fallback: ...)";
  const auto fig = beff_io::make_figure(fake.tests, facts, fake.mod);
  CHECK(fig.name == "b_eff_io");
  REQUIRE_FALSE(fig.values.empty());
  CHECK(fig.values[0].name == "b_eff_io");
  CHECK(fig.values[0].unit == "MiB/s");
  CHECK(value(fig, "P2 actual_time") == Approx(63.0));
  CHECK(value(fig, "P2 deviation") == Approx(0.05));
  CHECK(value(fig, "P2 within_10_percent") == 1);
  CHECK(value(fig, "P2 wall_time") == Approx(63.0));
  CHECK(has_note(fig, "the types table here is MiB/s (2^20 B/s) over open + the timed units + "
                      "close"));
  // Partition 1 has no wall time: its I/O steps' time (5 x 5.5 s) is 54 % short of T.
  CHECK(value(fig, "P1 actual_time") == Approx(27.5));
  CHECK(value(fig, "P1 within_10_percent") == 0);
  // write: type 0 20/2 = 10, type 1 10/2.5 = 4, types 2-4 10/2 = 5 -> (2*10+4+15)/6 = 6.5
  const auto &types = table(fig, "types");
  int seen_types = 0;
  for (const auto &row : types.rows) {
    if (number(cell(types, row, "partition")) != 2 ||
        std::get<std::string>(cell(types, row, "method")) != "write")
      continue;
    const auto t = number(cell(types, row, "type"));
    if (t == 1) {
      CHECK(number(cell(types, row, "MiB/s")) == Approx(4.0));
      ++seen_types;
    }
    if (t == 0) {
      CHECK(number(cell(types, row, "time_s")) == Approx(2.0));
      CHECK(number(cell(types, row, "bytes")) == 20 * M);
      ++seen_types;
    }
  }
  CHECK(seen_types == 2);
  CHECK(value(fig, "P2 b_eff_io(write)") == Approx(6.5));
  // rewrite: 20/2.5 = 8, then 4, 4, 4, 4 -> (16+16)/6; read: 20/1 = 20, then 10 x 4 -> 80/6
  CHECK(value(fig, "P2 b_eff_io(rewrite)") == Approx(32.0 / 6));
  CHECK(value(fig, "P2 b_eff_io(read)") == Approx(80.0 / 6));
  CHECK(value(fig, "P2 b_eff_io") == Approx(0.25 * 6.5 + 0.25 * 32.0 / 6 + 0.5 * 80.0 / 6));
  CHECK(value(fig, "P2 complete") == 1);
  // Measured time: every test's open + phases + close: 5 types x (2 + 2.5 + 1) + type 1's sync.
  CHECK(value(fig, "P2 measured_time") == Approx(5 * 5.5 + 0.5));
  // The per-chunk table: per type, bytes over the pattern's own time (its sync included).
  const auto &chunks = table(fig, "chunks");
  bool seen = false;
  for (const auto &row : chunks.rows)
    if (number(row[0]) == 2 && std::get<std::string>(row[1]) == "write" &&
        std::get<std::string>(row[2]) == "1M") {
      CHECK(number(cell(chunks, row, "type 1 shared MiB/s")) == Approx(10.0 / 2.0));
      CHECK(number(cell(chunks, row, "type 0 scatter MiB/s")) == Approx(20.0 / 1.5));
      seen = true;
    }
  CHECK(seen);
  CHECK(value(fig, "P1 b_eff_io(rewrite)") == Approx(0.4));
  CHECK(value(fig, "P1 b_eff_io") == Approx(0.25 * 0.5 + 0.25 * 0.4 + 0.5 * 1.0));
  CHECK(value(fig, "processes") == 2);
  CHECK(value(fig, "b_eff_io") == Approx(value(fig, "P2 b_eff_io")));
  CHECK(value(fig, "meets_rule") == 0);
  CHECK(has_note(fig, "does not meet the paper's rule: scheduled time 60.0 s per partition is "
                      "below 15 min"));
  CHECK(has_note(fig, "pattern type 1 positioning: individual file pointers (fallback"));
  // Rounds: one unit each, so every rewrite and read went through the write's unit once.
  const auto &pats = table(fig, "patterns");
  CHECK(pats.rows.size() == 2 * 5 * 3);
  for (const auto &row : pats.rows)
    CHECK(number(cell(pats, row, "rounds")) == Approx(1.0));
}

TEST_CASE("figure: T of 15 min with every pattern meets the rule; a failed type does not",
          "[beff][figure]") {
  FakeModule fake;
  fake.add_partition(4, 10, 10, 0);
  beff_io::FigureFacts facts;
  facts.definition = beff_io::Definition::Paper;
  facts.scheduled_time_s = 900;
  auto fig = beff_io::make_figure(fake.tests, facts, fake.mod);
  CHECK(value(fig, "meets_rule") == 1);
  CHECK(has_note(fig, "meets the paper's rule"));
  // Each reason to fail the rule, one at a time.
  for (int reason = 0; reason < 3; ++reason) {
    beff_io::FigureFacts f = facts;
    f.all_patterns = reason != 0;
    f.mpart_by_definition = reason != 1;
    if (reason == 2)
      f.capped = {"write 1 MPART (P4)"};
    const auto g = beff_io::make_figure(fake.tests, f, fake.mod);
    CHECK(value(g, "meets_rule") == 0);
    if (reason == 2)
      CHECK(has_note(g, "MaxFileSize capped: write 1 MPART (P4)"));
  }
  fake.mod.tests[8].error = pio::ErrorRecord{0, "boom", {}}; // type 3's rewrite
  fig = beff_io::make_figure(fake.tests, facts, fake.mod);
  CHECK(value(fig, "meets_rule") == 0);
  CHECK(value(fig, "P4 complete") == 0);
  CHECK(has_note(fig, "P4 is incomplete: pattern types missing or failed: 3 (failed)"));
}

TEST_CASE("figure: rounds of a rewrite and read that cycled through the write's units",
          "[beff][figure]") {
  FakeModule fake;
  fake.add_partition(1, 1, 1, 0);
  fake.mod.tests[0].reps[0].phases[0].units = 2;  // write of pattern 0: 2 units
  fake.mod.tests[5].reps[0].phases[0].units = 5;  // rewrite: 5 units
  fake.mod.tests[10].reps[0].phases[0].units = 7; // read: 7 units
  beff_io::FigureFacts facts;
  facts.scheduled_time_s = 60;
  const auto fig = beff_io::make_figure(fake.tests, facts, fake.mod);
  const auto &pats = table(fig, "patterns");
  std::map<std::string, double> rounds;
  for (const auto &row : pats.rows)
    if (number(cell(pats, row, "pattern")) == 0)
      rounds[std::get<std::string>(cell(pats, row, "method"))] = number(cell(pats, row, "rounds"));
  CHECK(rounds["write"] == Approx(1.0));
  CHECK(rounds["rewrite"] == Approx(2.5));
  CHECK(rounds["read"] == Approx(3.5));
}

// ------------------------------------------------------------------------------------------
// Definition original (b_eff_io 2.1): time units, segment sizes, the figure, the file cap.

TEST_CASE("original: T is shared by partitions and cut into 150 time units (192 rewriting all)",
          "[beff][original]") {
  const auto table = beff_io::table2(2 * M);
  CHECK(beff_io::schedule_units(beff_io::Definition::Original, table, {0}) == 64 + 22 + 64);
  CHECK(beff_io::schedule_units(beff_io::Definition::Original, table, {0, 1, 2, 3, 4}) == 192);
  CHECK(beff_io::schedule_units(beff_io::Definition::Paper, table, {0, 1, 2, 3, 4}) == 64);
  CHECK(beff_io::original_budget(300, 2, 4, 150) == Approx(4.0));

  beff_io::PlanInput in;
  in.processes = 4;
  in.scheduled_time = 300;
  in.partitions = {2, 4};
  in.node_memory = 1024 * M;
  in.processes_per_node = {{2, 2}, {4, 4}};
  const auto plan = beff_io::make_plan(in); // the defaults are the original's
  CHECK(plan.definition == beff_io::Definition::Original);
  CHECK(plan.rewritten_types == std::set<int>{0});
  CHECK_FALSE(plan.catch_up);
  // Per partition: 5 writes, the rewrite of type 0, 5 reads.
  REQUIRE(plan.tests.size() == 22);
  const std::vector<std::string> first = {"P2 type 0 write", "P2 type 1 write", "P2 type 2 write",
                                          "P2 type 3 write", "P2 type 4 write", "P2 type 0 rewrite",
                                          "P2 type 0 read",  "P2 type 1 read",  "P2 type 2 read",
                                          "P2 type 3 read",  "P2 type 4 read"};
  for (size_t i = 0; i < first.size(); ++i)
    CHECK(plan.tests[i].spec.label == first[i]);
  // T_n = 300 / 2 partitions = 150 s; pattern 1 (U 4) writes 150 * 4 / 150 = 4 s, pattern 4
  // (U 2) 2 s; rewrite and read repeat the write's calls (no budget).
  const auto &w0 = plan.tests[0];
  CHECK(w0.schedule_units == 150);
  CHECK(w0.partition_time == Approx(150.0));
  CHECK(w0.spec.phases[2].label == "write 1 MPART");
  CHECK(w0.spec.phases[2].time_budget_s == Approx(4.0));
  CHECK(w0.spec.phases[8].label == "write 4 32K");
  CHECK(w0.spec.phases[8].time_budget_s == Approx(2.0));
  for (const auto &ph : plan.tests[5].spec.phases)
    CHECK(ph.time_budget_s == 0);
  for (const auto &ph : plan.tests[6].spec.phases)
    CHECK(ph.time_budget_s == 0);
  // Type 3 and 4 stay size-driven.
  for (const auto &ph : plan.tests[3].spec.phases)
    CHECK(ph.time_budget_s == 0);
  CHECK(w0.spec.params.at("definition") == "original");
  CHECK(w0.spec.params.at("rewrite_types") == "0");
  // RewriteTypes all: a rewrite per type and 192 units.
  in.rewrite_all = true;
  const auto all = beff_io::make_plan(in);
  CHECK(all.tests.size() == 30);
  CHECK(all.tests[0].schedule_units == 192);
}

TEST_CASE("original: segments of types 3 and 4 repeat min(r0 L/l, 10 r1, r2)", "[beff][original]") {
  beff_io::SegmentInputs in;
  CHECK(beff_io::original_segment_repetitions(in) == 1);
  in.type0_chunks = 2048;
  in.type1_calls = 100;
  in.type2_calls = 1500;
  CHECK(beff_io::original_segment_repetitions(in) == 1000); // 10 x 100
  in.type2_calls = 700;
  CHECK(beff_io::original_segment_repetitions(in) == 700);
  in.type1_calls.reset();
  in.type2_calls.reset();
  CHECK(beff_io::original_segment_repetitions(in) == 2048);

  const auto table = beff_io::table2(2 * M);
  // Type 3: 25 (1M, U 0), 26 (MPART), 27 (1M), 29 (1K), 33 (fill).
  const std::vector<beff_io::Pattern> pats = {table[25], table[26], table[27], table[29],
                                              table[33]};
  const std::map<int, std::int64_t> measured = {
      {1, 3},   {10, 1},   {18, 5},            // MPART: min(3, 10, 5) = 3
      {2, 100}, {3, 7},    {11, 1},   {19, 9}, // 1M: pattern 2 (L = 2 MB) does not count: 7
      {5, 2},   {13, 100}, {21, 1500}};        // 1K: min(2 x 1024, 1000, 1500) = 1000
  const auto seg =
      beff_io::size_segment(pats, table, measured, 0, beff_io::Definition::Original, {});
  CHECK(seg.units == std::vector<std::int64_t>{1, 3, 7, 1000, 1});
  const std::int64_t used = M + 3 * 2 * M + 7 * M + 1000 * K;
  CHECK(seg.used == used);
  CHECK(seg.size == (used + M - 1) / M * M); // LSEG rounded up to 1 MB
  // The MaxFileSize share caps each pattern's repetitions.
  const auto capped = beff_io::size_segment(pats, table, measured, 0, beff_io::Definition::Original,
                                            {0, 2, 0, 500, 0});
  CHECK(capped.units == std::vector<std::int64_t>{1, 2, 7, 500, 1});
}

TEST_CASE("original: the figure is sqrt((w0..w4 + rw0) / 6 x (2 r0 + r1..r4) / 6) in MB/s of "
          "wall time",
          "[beff][original][figure]") {
  FakeModule fake;
  fake.add_partition(2, 20, 10, 0.5);
  // Wall time counts (b_eff_io 2.1 reads the clock around the loop): type 0's write loop took
  // 1.5 s of timed units but 2.5 s of wall time.
  fake.mod.tests[0].reps[0].phases[0].elapsed_time_s = 2.5;
  beff_io::FigureFacts facts; // Definition original by default
  facts.scheduled_time_s = 60;
  const auto fig = beff_io::make_figure(fake.tests, facts, fake.mod);
  const double mb = 1.048576; // MiB in MB
  // write: type 0 20 MiB / (0.5 + 2.5) s, type 1 10 / 2.5, types 2-4 10 / 2
  const double w[5] = {20.0 / 3.0, 4.0, 5.0, 5.0, 5.0};
  const double rw0 = 20.0 / 2.5;
  const double r[5] = {20.0, 10.0, 10.0, 10.0, 10.0};
  const double write_rewrite = (w[0] + w[1] + w[2] + w[3] + w[4] + rw0) / 6;
  const double read = (2 * r[0] + r[1] + r[2] + r[3] + r[4]) / 6;
  CHECK(fig.values[0].unit == "MB/s");
  CHECK(value(fig, "P2 b_eff_io(write+rewrite type 0)") == Approx(write_rewrite * mb));
  CHECK(value(fig, "P2 b_eff_io(read)") == Approx(read * mb));
  CHECK(value(fig, "P2 b_eff_io") == Approx(std::sqrt(write_rewrite * read) * mb));
  CHECK(value(fig, "b_eff_io") == Approx(std::sqrt(write_rewrite * read) * mb));
  CHECK(value(fig, "P2 b_eff_io by original formula") == Approx(value(fig, "P2 b_eff_io")));
  const double write = (2 * w[0] + w[1] + w[2] + w[3] + w[4]) / 6;
  const double rewrite = (2 * rw0 + 4 * 4.0) / 6; // the fake rewrote every type
  CHECK(value(fig, "P2 b_eff_io by paper formula") ==
        Approx((0.25 * write + 0.25 * rewrite + 0.5 * read) * mb));
  CHECK(value(fig, "definition_original") == 1);
  const auto &types = table(fig, "types");
  REQUIRE(types.columns.back() == "MB/s");
  CHECK(has_note(fig, "definition original (b_eff_io 2.1"));
  // The two rates of a test are labelled: the console's per-test table, the types table here.
  CHECK(has_note(fig, "two numbers for one test: the per-test table above the figure is the "
                      "harness's MiB/s (2^20 B/s) over the timed work units only; the types "
                      "table here is MB/s (10^6 B/s) over the wall time from open to close"));
  // b_eff_io 2.1's criterion 1: T_n >= 30 min per partition.
  CHECK(has_note(fig, "scheduled time 60.0 s per partition is below 30 min"));
  facts.scheduled_time_s = 3600;
  facts.partitions = 2;
  CHECK(value(beff_io::make_figure(fake.tests, facts, fake.mod), "meets_rule") == 1);
  facts.partitions = 3;
  CHECK(value(beff_io::make_figure(fake.tests, facts, fake.mod), "meets_rule") == 0);
}

TEST_CASE("MaxFileSize: all files of a partition fit, every pattern gets at least one call",
          "[beff][cap]") {
  const auto table = beff_io::table2(8 * M);
  for (int procs : {1, 2, 4})
    for (std::int64_t cap_bytes : {std::int64_t(300) * M, std::int64_t(1) << 30}) {
      const auto cap = beff_io::file_cap(table, procs, cap_bytes);
      // The largest file image the caps allow: every U > 0 pattern at its most units, the
      // U = 0 ones once, each type 3/4 segment rounded up by at most 1 MB per rank.
      std::int64_t most = 2 * procs * M;
      for (const auto &p : table) {
        if (p.fill)
          continue;
        const std::int64_t units = p.U > 0 ? cap.max_units.at(p.number) : 1;
        CHECK(units >= 1);
        most += units * beff_io::unit_bytes_all(p, procs);
      }
      INFO(procs << " processes, cap " << cap_bytes);
      CHECK(most <= cap_bytes);
    }
  // Below one call of every pattern: an error before any I/O, naming what is needed.
  CHECK_THROWS_AS(beff_io::file_cap(table, 4, 64 * M), pio::Error);
  auto in = plan_input();
  in.max_file_size = 64 * M;
  CHECK_THROWS_AS(beff_io::make_plan(in), pio::Error);
}

TEST_CASE("MaxFileSize by default: 90 % of a disk's free space, 40 % of a tmpfs's", "[beff][cap]") {
  const std::int64_t free_bytes = std::int64_t(65) << 30;
  CHECK(beff_io::default_max_file_size(free_bytes, false) == free_bytes / 10 * 9);
  CHECK(beff_io::default_max_file_size(free_bytes, true) == free_bytes / 5 * 2);
  CHECK(beff_io::default_max_file_size(-1, false) ==
        0); // free space unknown: 0, the plan's "no cap"
}
