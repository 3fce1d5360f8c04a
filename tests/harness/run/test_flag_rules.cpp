// The rules behind the flags (docs/reference/results.md, "Flags", "Steadiness"), on typed results
// made up here: each rule raised by what provokes it and not by a clean record, with its reason.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <vector>

#include "mpi_test.hpp"

#include "config/module_reps.hpp"
#include "report/node_conditions.hpp"
#include "run/flag_rules.hpp"
#include "run/page_cache.hpp"
#include "run/steadiness.hpp"

using namespace pio;
using namespace pio::harness;

namespace {

/// An I/O test of `n` repetitions at `mibps` MiB/s each, two ranks on one node of 4 cores.
TestResult io_test(const std::vector<double> &mibps) {
  TestResult t;
  t.label = "64K";
  t.procs = 2;
  t.conditions.ranks_per_node = 2;
  t.conditions.usable_cores = 4;
  t.conditions.cpu_wait_fraction = 0.01;
  int k = 0;
  for (double v : mibps) {
    Repetition r;
    r.rep = k++;
    r.bandwidth_MiBps = v;
    r.aggregate_time_s = 1;
    r.rank_time_s.max = 0.9;
    r.phases.push_back(PhaseResult{});
    t.reps.push_back(r);
  }
  return t;
}

RunResult one_host(double copy_mibps = 10000, double load = 0.5) {
  RunResult run;
  HostInfo h;
  h.name = "n1";
  h.conditions.usable_cores = 4;
  h.conditions.memory_copy_MiBps = copy_mibps;
  h.conditions.load_1m = load;
  run.hosts.push_back(h);
  return run;
}

bool flagged(const TestResult &t, Flag f) {
  for (const auto &r : t.flags)
    if (r.flag == f)
      return !r.reason.empty();
  return false;
}

CacheCheck cache(std::int64_t range, std::int64_t resident, bool dropped = false) {
  CacheCheck c;
  c.range_bytes = range;
  c.resident_bytes = resident;
  c.max_node_fraction = range ? static_cast<double>(resident) / static_cast<double>(range) : 0;
  c.dropped = dropped;
  return c;
}

} // namespace

TEST_CASE("the median's interval from order statistics", "[flag_rules]") {
  CHECK(!median_interval(5)); // the smallest and largest of 5 cover 93.75 %
  const auto six = median_interval(6);
  REQUIRE(six);
  CHECK(six->j == 1);
  CHECK(six->coverage == Approx(1 - 2.0 / 64));
  const auto twenty = median_interval(20); // P(B <= 5) = 0.0207 for B ~ Bin(20, 1/2)
  REQUIRE(twenty);
  CHECK(twenty->j == 6);
  CHECK(twenty->coverage == Approx(0.9586).epsilon(1e-3));
  const Steadiness s = steadiness_of({10, 11, 9, 10, 12, 8});
  REQUIRE(s.ci_low);
  CHECK(*s.ci_low == 8);
  CHECK(*s.ci_high == 12);
  CHECK(s.median == 10);
  CHECK(s.ci_half_width == Approx(0.2));
  CHECK(s.min_over_median == Approx(0.8));
  CHECK(s.cv == Approx(1.41421 / 10).epsilon(1e-3));
}

TEST_CASE("bimodal repetitions: two tight groups far apart, not a spread", "[flag_rules]") {
  CHECK(is_bimodal({100, 101, 102, 150, 151, 152}));
  CHECK(!is_bimodal({100, 110, 120, 130, 140, 150}));
  CHECK(!is_bimodal({100, 101, 102, 103, 104, 200})); // one outlier is not a group
  CHECK(!is_bimodal({100, 101, 150, 151, 152}));      // too few to say
}

TEST_CASE("ModuleReps auto stops at the target, the cap or the largest count", "[flag_rules]") {
  const std::vector<double> steady = {100, 101, 99, 100, 102, 98};
  CHECK(auto_reps_stop(steady, 0.05, 1, 60, 1000) == RepsStop::Target);
  CHECK(!auto_reps_stop({100, 101, 99, 100, 102}, 0.05, 1, 60, 1000)); // 5: no interval yet
  const std::vector<double> noisy = {100, 150, 60, 120, 80, 140};
  CHECK(!auto_reps_stop(noisy, 0.05, 1, 60, 1000));
  CHECK(auto_reps_stop(noisy, 0.05, 61, 60, 1000) == RepsStop::TimeCap);
  CHECK(auto_reps_stop(noisy, 0.05, 1, 60, 6) == RepsStop::MaxReps);
}

TEST_CASE("ModuleReps is a count or auto with a target and a cap", "[flag_rules]") {
  CHECK(parse_module_reps({"7"}).reps == 7);
  CHECK(!parse_module_reps({"7"}).automatic);
  const RepsSetting a = parse_module_reps({"auto"});
  CHECK(a.automatic);
  CHECK(a.target == Approx(0.05));
  CHECK(a.time_cap_s == 60);
  const RepsSetting b = parse_module_reps({"auto", "120s", "2%"});
  CHECK(b.target == Approx(0.02));
  CHECK(b.time_cap_s == 120);
  CHECK_THROWS_WITH(parse_module_reps({"auto", "5%", "7%"}), Catch::Contains("two targets"));
  CHECK_THROWS_WITH(parse_module_reps({"0"}), Catch::Contains("below the minimum 1"));
  CHECK_THROWS_WITH(parse_module_reps({"4294967296"}),
                    Catch::Contains("ModuleReps 4294967296 is above the maximum 1000000"));
  CHECK_THROWS_WITH(parse_module_reps({"often"}), Catch::Contains("often"));
  CHECK_THROWS_WITH(parse_module_reps({"auto", "80%"}), Catch::Contains("outside 0.1 .. 50"));
}

TEST_CASE("a clean record carries no flag", "[flag_rules]") {
  TestResult t = io_test({100, 101, 99, 100});
  t.reps[0].phases[0].cache = cache(1 << 20, 0, true);
  ModuleResult block;
  block.cache_mode = CacheMode::Drop;
  assess_test(t, block, one_host());
  CHECK(t.flags.empty());
  for (const auto &r : t.reps)
    CHECK(r.flags.empty());
  CHECK(t.notes.empty());
}

TEST_CASE("page_cache: mostly resident reads, re-reads, tmpfs; not under CacheMode direct",
          "[flag_rules]") {
  ModuleResult keep;
  TestResult t = io_test({100, 100, 100});
  t.reps[1].phases[0].cache = cache(1 << 20, 900 << 10);
  assess_test(t, keep, one_host());
  REQUIRE(flagged(t, Flag::PageCache));
  CHECK_THAT(t.flags[0].reason, Catch::Contains("1 of 3 repetitions"));
  CHECK_THAT(t.flags[0].reason, Catch::Contains("88 % of the 1 MiB"));
  CHECK_THAT(t.flags[0].reason, Catch::Contains("CacheMode drop evicts it"));
  CHECK(t.reps[0].flags.empty());
  CHECK(t.reps[1].flags.size() == 1);

  TestResult low = io_test({100, 100, 100});
  low.reps[0].phases[0].cache = cache(1 << 20, 100 << 10);
  assess_test(low, keep, one_host());
  CHECK(!flagged(low, Flag::PageCache));

  TestResult shm = io_test({100, 100, 100});
  shm.reps[0].phases[0].cache = cache(1 << 20, 1 << 20, true);
  shm.reps[0].phases[0].cache->memory_file_system = true;
  assess_test(shm, keep, one_host());
  REQUIRE(flagged(shm, Flag::PageCache));
  CHECK_THAT(shm.flags[0].reason, Catch::Contains("tmpfs"));

  TestResult reread = io_test({100, 100, 100});
  reread.reps[0].phases[0].cache = cache(1 << 20, 0, true);
  reread.reps[0].phases[0].cache->access = PhaseAccess::ReRead;
  assess_test(reread, keep, one_host());
  CHECK(flagged(reread, Flag::PageCache));

  ModuleResult direct;
  direct.cache_mode = CacheMode::Direct;
  assess_test(reread, direct, one_host());
  CHECK(!flagged(reread, Flag::PageCache));
}

TEST_CASE("memory_bandwidth: the node's share above its copy rate", "[flag_rules]") {
  ModuleResult block;
  TestResult t = io_test({100, 100, 30000}); // 2 ranks on the node: all of it per node
  assess_test(t, block, one_host(20000));
  REQUIRE(flagged(t, Flag::MemoryBandwidth));
  CHECK(t.reps[2].flags.size() == 1);
  CHECK_THAT(t.flags[0].reason, Catch::Contains("30000 MiB/s per node"));
  TestResult two_nodes = io_test({30000, 30000, 30000});
  two_nodes.procs = 4; // 2 of its 4 ranks per node: 15000 MiB/s each
  assess_test(two_nodes, block, one_host(20000));
  CHECK(!flagged(two_nodes, Flag::MemoryBandwidth));
}

TEST_CASE("oversubscribed, swapping and heavy_load from what the nodes saw", "[flag_rules]") {
  ModuleResult block;
  TestResult t = io_test({100, 100, 100});
  t.conditions.ranks_per_node = 4;
  t.conditions.usable_cores = 2;
  t.conditions.swapped_pages = 12;
  t.conditions.cpu_wait_fraction = 0.6;
  assess_test(t, block, one_host());
  CHECK(flagged(t, Flag::Oversubscribed));
  CHECK(flagged(t, Flag::Swapping));
  REQUIRE(flagged(t, Flag::HeavyLoad));
  CHECK_THAT(t.flags.back().reason, Catch::Contains("a rank of the test waited for a CPU"));
  CHECK_THAT(t.flags.back().reason, Catch::Contains("60 %"));
  CHECK_THAT(t.flags.back().reason, Catch::Contains("oversubscribe"));

  // Tasks on the node kept waiting (a storage worker beside two spinning ranks) while the ranks
  // themselves ran: the node's pressure is recorded, the figure is not flagged.
  TestResult others = io_test({100, 100, 100});
  others.conditions.cpu_wait_fraction = 0.03;
  others.conditions.node_cpu_pressure = 0.9;
  assess_test(others, block, one_host());
  CHECK(!flagged(others, Flag::HeavyLoad));

  // Without the ranks' run-queue delay: the node's pressure stands in.
  TestResult no_delay = io_test({100, 100, 100});
  no_delay.conditions.cpu_wait_fraction = -1;
  no_delay.conditions.node_cpu_pressure = 0.45;
  assess_test(no_delay, block, one_host());
  REQUIRE(flagged(no_delay, Flag::HeavyLoad));
  CHECK_THAT(no_delay.flags.back().reason, Catch::Contains("/proc/pressure/cpu"));
  CHECK_THAT(no_delay.flags.back().reason, Catch::Contains("45 %"));

  // Without either: the load average before the run against the usable cores.
  TestResult no_psi = io_test({100, 100, 100});
  no_psi.conditions.cpu_wait_fraction = -1;
  assess_test(no_psi, block, one_host(10000, 6.5));
  CHECK(flagged(no_psi, Flag::HeavyLoad));
  assess_test(no_psi, block, one_host(10000, 1.5));
  CHECK(!flagged(no_psi, Flag::HeavyLoad));
}

TEST_CASE("heavy_load says when the ranks were not bound to cores, and how to bind them",
          "[flag_rules]") {
  ModuleResult block;
  const auto reason = [](const TestResult &t) {
    for (const auto &r : t.flags)
      if (r.flag == Flag::HeavyLoad)
        return r.reason;
    return std::string();
  };
  RunResult unbound = one_host(), bound = one_host(), unknown = one_host();
  unbound.hosts[0].conditions.rank_cpus = 4;
  bound.hosts[0].conditions.rank_cpus = 1;
  TestResult t = io_test({100, 100, 100});
  t.conditions.cpu_wait_fraction = 0.25;
  assess_test(t, block, unbound);
  CHECK_THAT(reason(t), Catch::Contains("25 %") &&
                            Catch::Contains("not bound to cores (one may run on any of 4 CPUs)") &&
                            Catch::Contains("mpiexec -bind-to core"));
  for (const RunResult *run : {&bound, &unknown}) {
    TestResult u = io_test({100, 100, 100});
    u.conditions.cpu_wait_fraction = 0.25;
    assess_test(u, block, *run);
    CHECK_THAT(reason(u), Catch::Contains("25 %"));
    CHECK(reason(u).find("bound") == std::string::npos);
  }
  // Oversubscribed: binding would not help; the reason says the ranks outnumber the cores.
  TestResult crowded = io_test({100, 100, 100});
  crowded.conditions.ranks_per_node = 8;
  crowded.conditions.cpu_wait_fraction = 0.6;
  assess_test(crowded, block, unbound);
  CHECK_THAT(reason(crowded), Catch::Contains("oversubscribe"));
  CHECK(reason(crowded).find("bind") == std::string::npos);
  // Below the rule's 20 %: no flag, bound or not.
  TestResult calm = io_test({100, 100, 100});
  calm.conditions.cpu_wait_fraction = 0.1;
  assess_test(calm, block, unbound);
  CHECK(!flagged(calm, Flag::HeavyLoad));
}

TEST_CASE("a schedstat line's run-queue delay", "[flag_rules]") {
  CHECK(run_delay_ns_of("1516279 3539093 12\n") == Approx(3539093));
  CHECK(run_delay_ns_of("0 0 0") == Approx(0));
  CHECK(run_delay_ns_of("") < 0);
  CHECK(run_delay_ns_of("12 x 3") < 0);
  // This thread's own: there and not going backwards.
  const double a = own_run_delay_us();
  const double b = own_run_delay_us();
  REQUIRE(a >= 0);
  CHECK(b >= a);
}

TEST_CASE("wide_spread, bimodal and warm_up over the repetitions", "[flag_rules]") {
  ModuleResult block;
  TestResult wide = io_test({100, 140, 70, 120});
  assess_test(wide, block, one_host());
  CHECK(flagged(wide, Flag::WideSpread));
  CHECK(!flagged(wide, Flag::WarmUp));

  // One repetition of five apart from the others, which agree: a note, not a spread (the
  // median does not rest on it); two apart are a spread; below five repetitions, no allowance.
  TestResult lone = io_test({2028, 2004, 1993, 1995, 1541});
  assess_test(lone, block, one_host());
  CHECK(lone.summary.steadiness.cv > 0.1);
  CHECK(!flagged(lone, Flag::WideSpread));
  REQUIRE(lone.notes.size() == 1);
  CHECK_THAT(lone.notes[0], Catch::Contains("repetition 4 lies at 0.772 of the median"));
  CHECK_THAT(lone.notes[0], Catch::Contains("does not rest on it"));
  TestResult pair = io_test({100, 101, 99, 60, 75});
  assess_test(pair, block, one_host());
  CHECK(flagged(pair, Flag::WideSpread));
  CHECK(pair.notes.empty());
  TestResult fast_one = io_test({100, 101, 99, 100, 160});
  assess_test(fast_one, block, one_host());
  CHECK(!flagged(fast_one, Flag::WideSpread));
  CHECK_THAT(fast_one.notes.at(0), Catch::Contains("repetition 4 lies at 1.6 of the median"));
  TestResult four = io_test({100, 101, 99, 60});
  assess_test(four, block, one_host());
  CHECK(flagged(four, Flag::WideSpread));

  TestResult two = io_test({100, 101, 102, 150, 151, 152});
  assess_test(two, block, one_host());
  CHECK(flagged(two, Flag::Bimodal));

  TestResult first = io_test({40, 100, 102, 99, 101});
  assess_test(first, block, one_host());
  REQUIRE(flagged(first, Flag::WarmUp));
  CHECK(first.reps[0].flags.size() == 1);
  CHECK(first.reps[1].flags.empty());
  TestResult near = io_test({97, 100, 102, 99, 101});
  assess_test(near, block, one_host());
  CHECK(!flagged(near, Flag::WarmUp));
  // A first repetition faster than the others is no warm-up: the slow side is a rate's lower.
  TestResult fast = io_test({160, 100, 102, 99, 101});
  assess_test(fast, block, one_host());
  CHECK(!flagged(fast, Flag::WarmUp));
  // After WarmUpReps the first recorded repetition is judged like the others: a slow one is no
  // warm-up (those ran unrecorded), and only the spread's flags may speak of it.
  ModuleResult warmed;
  warmed.warm_up_reps = 2;
  TestResult after = io_test({88, 100, 102, 99, 101});
  assess_test(after, warmed, one_host());
  CHECK(!flagged(after, Flag::WarmUp));
  CHECK(!flagged(after, Flag::WideSpread));
  TestResult after_slow = io_test({40, 100, 102, 99, 101, 60});
  assess_test(after_slow, warmed, one_host());
  CHECK(!flagged(after_slow, Flag::WarmUp));
  CHECK(flagged(after_slow, Flag::WideSpread));
  TestResult after_one = io_test({40, 100, 102, 99, 101});
  assess_test(after_one, warmed, one_host());
  CHECK(!flagged(after_one, Flag::WarmUp));
  CHECK(!flagged(after_one, Flag::WideSpread)); // one apart: a note
  CHECK_THAT(after_one.notes.at(0), Catch::Contains("repetition 0 lies at 0.4 of the median"));
  TestResult unwarmed = io_test({88, 100, 102, 99, 101});
  assess_test(unwarmed, block, one_host());
  CHECK(flagged(unwarmed, Flag::WarmUp));
  // A time per operation: the slow side is the higher.
  for (const double first : {0.79, 0.40}) {
    TestResult ping = io_test({1, 1, 1, 1, 1});
    ping.comm = CommSemantics{};
    const double times[] = {first, 0.59, 0.62, 0.60, 0.61};
    for (size_t i = 0; i < ping.reps.size(); ++i) {
      OpTimes op;
      op.t_avg_us = times[i];
      ping.reps[i].op = op;
    }
    assess_test(ping, block, one_host());
    CHECK(flagged(ping, Flag::WarmUp) == (first > 0.7));
  }

  ModuleResult autoreps;
  autoreps.reps_auto = true;
  autoreps.reps_target = 0.05;
  TestResult capped = io_test({100, 101, 99});
  capped.reps_stop = RepsStop::TimeCap;
  assess_test(capped, autoreps, one_host());
  REQUIRE(flagged(capped, Flag::WideSpread));
  CHECK_THAT(capped.flags[0].reason, Catch::Contains("time cap"));
}

TEST_CASE("notes where the timing cannot be vouched for", "[flag_rules]") {
  ModuleResult block;
  TestResult own = io_test({100, 100, 100});
  own.reps[1].rank_time_s.max = 5.2; // above its aggregate time of 1 s
  assess_test(own, block, one_host());
  REQUIRE(own.notes.size() == 1);
  CHECK_THAT(own.notes[0], Catch::Contains("exceeds the aggregate time"));

  TestResult barriers = io_test({100, 100, 100});
  for (auto &r : barriers.reps)
    r.rank_time_s.max = 0.01; // the aggregate is 100x any rank's own time
  assess_test(barriers, block, one_host());
  REQUIRE(barriers.notes.size() == 1);
  CHECK_THAT(barriers.notes[0], Catch::Contains("TimingScope phase"));
  barriers.timing_scope = pio::TimingScope::Phase;
  assess_test(barriers, block, one_host());
  CHECK(barriers.notes.empty());
}

TEST_CASE("an IMB table's first length slower than the next is flagged warm_up", "[flag_rules]") {
  ModuleResult block;
  for (std::int64_t bytes : {0, 1024, 65536}) {
    TestResult t;
    t.index = static_cast<int>(block.tests.size());
    t.procs = 2;
    t.params = {{"np", "2"}};
    t.comm = CommSemantics{};
    t.comm->message_bytes = bytes;
    OpTimes op;
    op.t_avg_us = bytes == 0 ? 216.7 : bytes == 1024 ? 0.29 : 8.0;
    t.summary.op = op;
    block.tests.push_back(t);
  }
  CHECK(assess_first_lengths(block) == std::vector<size_t>{0});
  REQUIRE(block.tests[0].flags.size() == 1);
  CHECK_THAT(block.tests[0].flags[0].reason, Catch::Contains("first message length"));
  block.tests[0].flags.clear();
  block.tests[0].summary.op->t_avg_us = 0.25;
  CHECK(assess_first_lengths(block).empty());
}

TEST_CASE("a node's cpu lists, quotas and balloon features", "[flag_rules]") {
  CHECK(cpu_list_count("0-3,8") == 5);
  CHECK(cpu_list_count("") == 0);
  CHECK(cpu_quota_of("max 100000") == 0);
  CHECK(cpu_quota_of("200000 100000") == 2);
  CHECK(cpu_quota_of("150000") == 1.5);
  CHECK(balloon_reports_free_pages("011001010000"));
  CHECK(!balloon_reports_free_pages("011000010000"));
  CHECK(flag_named("Page_Cache") == Flag::PageCache);
  CHECK(!flag_named("cache"));
  for (Flag f : all_flags())
    CHECK(flag_named(to_string(f)) == f);
}

TEST_CASE("a file's page cache: cachestat and mincore agree, and a drop empties it",
          "[flag_rules][cache]") {
  pio::test::TempDir dir("/var/tmp"); // a disk file system: its pages can be evicted
  const std::string path = dir.file("resident");
  const std::vector<char> data(4 << 20, 'x');
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  ::close(fd);
  for (CacheProbe probe : {CacheProbe::Cachestat, CacheProbe::Mincore}) {
    const FileResidency r = file_residency(path, probe);
    CHECK(r.probe == probe);
    CHECK(r.bytes == 4 << 20);
    CHECK(r.resident == 4 << 20); // just written: every page
    CHECK(!r.memory_file_system);
  }
  drop_file_cache(path);
  for (CacheProbe probe : {CacheProbe::Cachestat, CacheProbe::Mincore})
    CHECK(file_residency(path, probe).resident < (1 << 20));
  CHECK_THROWS_WITH(file_residency(dir.file("missing")), Catch::Contains("missing"));

  pio::test::TempDir shm("/dev/shm");
  const std::string in_memory = shm.file("resident");
  const int m = ::open(in_memory.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  REQUIRE(m >= 0);
  REQUIRE(::write(m, data.data(), 65536) == 65536);
  ::close(m);
  drop_file_cache(in_memory); // nothing to evict: the pages are the file
  const FileResidency t = file_residency(in_memory);
  CHECK(t.memory_file_system);
  CHECK(t.resident == 65536);
}
