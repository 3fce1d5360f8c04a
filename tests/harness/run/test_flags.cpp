// Numbers that say what they measured (docs/reference/results.md, "Flags";
// docs/reference/timing.md, "The page cache"): each flag is raised by a run that provokes it and
// not by a clean run of the same size; CacheMode drop and direct, ReadShift, ModuleReps auto, and
// the unit scope's aggregate time holding every rank's own time.
#include <catch2/catch.hpp>

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "mpi_test.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

std::string block(const std::string &body) { return "<ap_module>\n" + body + "</ap_module>\n"; }

/// The flag names of a test object of the results.
std::set<std::string> flags_of(const nlohmann::json &flags) {
  std::set<std::string> out;
  for (const auto &f : flags)
    out.insert(f.at("flag").get<std::string>());
  return out;
}

const nlohmann::json &first_test(const nlohmann::json &results, size_t block = 0) {
  return results.at("modules").at(block).at("tests").at(0);
}

bool has_flag(const nlohmann::json &test, const std::string &name) {
  return flags_of(test.at("flags")).count(name) != 0;
}

/// The reason a test's flag gives ("" if not flagged so).
std::string flag_reason(const nlohmann::json &test, const std::string &name) {
  for (const auto &f : test.at("flags"))
    if (f.at("flag") == name)
      return f.at("reason").get<std::string>();
  return {};
}

/// Whether a clean run ran on a quiet node: not flagged heavy_load or oversubscribed. On a
/// loaded node the repetitions of a clean run may spread, split or start slow for real, and the
/// flags saying so are right; a clean run's missing flags are checked on a quiet node only.
bool quiet(const nlohmann::json &test) {
  if (has_flag(test, "heavy_load") || has_flag(test, "oversubscribed")) {
    WARN("the node is loaded (" << test.at("flags").dump()
                                << "): the clean run's spread is not checked");
    return false;
  }
  return true;
}

/// Every flag object has a known name and a one-line reason.
bool well_formed(const nlohmann::json &flags) {
  for (const auto &f : flags) {
    const std::string reason = f.at("reason").get<std::string>();
    if (reason.empty() || reason.find('\n') != std::string::npos)
      return false;
    if (!pio::flag_named(f.at("flag").get<std::string>()))
      return false;
  }
  return true;
}

/// Runs with every rank pinned to CPU 0 (then the node has one usable core), or as it is.
pio::test::Ran run_pinned(const pio::test::TempDir &dir, const std::string &name,
                          const std::string &text, bool pinned) {
  cpu_set_t was, one;
  sched_getaffinity(0, sizeof was, &was);
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  if (pinned)
    sched_setaffinity(0, sizeof one, &one);
  auto ran = pio::test::run_config(dir, name, text);
  sched_setaffinity(0, sizeof was, &was);
  return ran;
}

/// The CPUs the ranks of this node may use together (union of their affinity masks).
int usable_cpus() {
  cpu_set_t mine, all;
  sched_getaffinity(0, sizeof mine, &mine);
  MPI_Allreduce(&mine, &all, static_cast<int>(sizeof mine), MPI_UNSIGNED_CHAR, MPI_BOR,
                MPI_COMM_WORLD);
  return CPU_COUNT(&all);
}

/// Delays rank 0's exit of every error agreement (the barrier B1 before each work unit) while
/// armed: rank 0 then starts its unit late, as a descheduled root does (PMPI interposition).
bool delay_root_b1 = false;

} // namespace

extern "C" int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  const int rc = PMPI_Allreduce(in, out, count, type, op, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (delay_root_b1 && rank == 0 && count == 1 && type == MPI_INT && op == MPI_MIN)
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  return rc;
}

TEST_CASE("a read right after its write is flagged page_cache with CacheMode keep, not with "
          "drop",
          "[flags][cache]") {
  // /var/tmp: a disk file system, whose pages CacheMode drop can evict (tmpfs's it cannot).
  pio::test::TempDir dir("/var/tmp");
  for (const char *mode : {"keep", "drop"}) {
    DYNAMIC_SECTION("CacheMode " << mode) {
      const std::string text = "TestFile " + dir.file("data") + "\nCacheMode " + mode + "\n" +
                               block("ModuleName \"Simple Strided (read)\"\nBufferSizes 64K\n"
                                     "WorkUnits 4\nModuleReps 2\nVerify on\n");
      const auto ran = pio::test::run_config(dir, std::string("cache_") + mode, text);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const auto &t = first_test(ran.results);
        CHECK(ran.results.at("modules").at(0).at("cache_mode") == mode);
        CHECK(well_formed(t.at("flags")));
        for (const auto &r : t.at("reps")) {
          const auto &cache = r.at("phases").at(0).at("cache");
          REQUIRE(cache.is_object());
          // Every rank's 4 units of 64 KiB: the file the nodes read.
          CHECK(cache.at("range_bytes") == pio::test::size() * 4 * 65536);
          CHECK(cache.at("dropped") == (std::string(mode) == "drop"));
          const double resident = cache.at("resident_fraction").get<double>();
          if (std::string(mode) == "keep") {
            CHECK(resident > 0.9); // the untimed write of describe_test left it all
            CHECK(flags_of(r.at("flags")).count("page_cache") == 1);
          } else {
            CHECK(resident < 0.1);
            CHECK(flags_of(r.at("flags")).count("page_cache") == 0);
          }
        }
        CHECK(has_flag(t, "page_cache") == (std::string(mode) == "keep"));
        return true;
      }));
    }
  }
}

TEST_CASE("a write that leaves its bytes in the page cache is flagged write_cache; one that "
          "flushes them in its window, or one on tmpfs, is not",
          "[flags][cache]") {
  struct Case {
    const char *name, *dir, *settings;
    bool flagged;
  };
  // /var/tmp: a disk file system, where a write ends in the page cache unless it is flushed.
  const Case cases[] = {{"disk", "/var/tmp", "", true},
                        {"SyncWrites", "/var/tmp", "SyncWrites on\n", false},
                        {"SyncAtEnd", "/var/tmp", "TimingScope phase\nSyncAtEnd on\n", false},
                        {"tmpfs", "/dev/shm", "", false}};
  for (const Case &k : cases) {
    DYNAMIC_SECTION(k.name) {
      pio::test::TempDir dir(k.dir);
      const std::string text = "TestFile " + dir.file("data") + "\n" +
                               block("ModuleName \"Simple Strided (write)\"\nBufferSizes 64K\n"
                                     "WorkUnits 4\nModuleReps 2\n" +
                                     std::string(k.settings));
      const auto ran = pio::test::run_config(dir, std::string("wcache_") + k.name, text);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const auto &t = first_test(ran.results);
        CHECK(well_formed(t.at("flags")));
        for (const auto &r : t.at("reps")) {
          const auto &cache = r.at("phases").at(0).at("cache");
          REQUIRE(cache.is_object());
          CHECK(cache.at("access") == "write");
          // Every rank's 4 units of 64 KiB: the file the nodes wrote.
          CHECK(cache.at("range_bytes") == pio::test::size() * 4 * 65536);
          CHECK(cache.at("memory_file_system") == (std::string(k.dir) == "/dev/shm"));
          if (cache.at("probe") != "cachestat") {
            WARN("no cachestat on this kernel: dirty pages are not measured, nothing is flagged");
            CHECK(cache.at("dirty_bytes").is_null());
            CHECK(flags_of(r.at("flags")).count("write_cache") == 0);
            continue;
          }
          const double dirty =
              cache.at("dirty_bytes").get<double>() / cache.at("range_bytes").get<double>();
          if (std::string(k.dir) == "/var/tmp")
            CHECK((dirty > 0.9) == k.flagged); // flushed: nothing left dirty
          CHECK(flags_of(r.at("flags")).count("write_cache") == (k.flagged ? 1 : 0));
        }
        CHECK(has_flag(t, "write_cache") == k.flagged);
        if (k.flagged)
          for (const auto &f : t.at("flags"))
            if (f.at("flag") == "write_cache")
              CHECK_THAT(
                  f.at("reason").get<std::string>(),
                  Catch::Contains("2 of 2 repetitions left their writes in the page cache") &&
                      Catch::Contains("not on storage") && Catch::Contains("SyncAtEnd on"));
        return true;
      }));
    }
  }
}

TEST_CASE("re-read is flagged page_cache whatever is dropped before it", "[flags][cache]") {
  pio::test::TempDir dir("/var/tmp");
  const std::string text = "TestFile " + dir.file("data") + "\nCacheMode drop\n" +
                           block("ModuleName \"Simple Strided (re-read)\"\nBufferSizes 64K\n"
                                 "WorkUnits 2\n");
  const auto ran = pio::test::run_config(dir, "reread", text);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &t = first_test(ran.results);
    CHECK(t.at("reps").at(0).at("phases").at(0).at("cache").at("access") == "re-read");
    CHECK(has_flag(t, "page_cache"));
    return true;
  }));
}

TEST_CASE("CacheMode direct is refused with the reason where O_DIRECT cannot bypass the cache",
          "[flags][cache]") {
  SECTION("tmpfs") {
    pio::test::TempDir dir("/dev/shm");
    const std::string text = "TestFile " + dir.file("data") + "\nInterface posix\n" +
                             block("ModuleName \"Simple Strided (read)\"\nBufferSizes 64K\n"
                                   "WorkUnits 2\nCacheMode direct\n");
    const auto ran = pio::test::run_config(dir, "direct_tmpfs", text);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(on_root([&] {
      // At the CacheMode line (line 7: TestFile, Interface, <ap_module>, three module lines).
      CHECK_THAT(ran.err, Catch::Contains(dir.file("direct_tmpfs.conf") + ":7: CacheMode direct"));
      CHECK_THAT(ran.err, Catch::Contains("is on tmpfs"));
      CHECK_THAT(ran.err,
                 Catch::Contains("is on tmpfs, which has no storage below its page cache"));
      CHECK_THAT(ran.err, Catch::Contains("CacheMode drop"));
      return true;
    }));
    REQUIRE(all_ranks(!pio::test::exists(dir.file("data"))));
  }
  SECTION("MPI-IO") {
    pio::test::TempDir dir("/var/tmp");
    const std::string text = "TestFile " + dir.file("data") + "\nCacheMode direct\n" +
                             block("ModuleName \"Simple Strided (read)\"\nWorkUnits 2\n");
    const auto ran = pio::test::run_config(dir, "direct_mpiio", text);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(on_root([&] {
      CHECK_THAT(ran.err, Catch::Contains(dir.file("direct_mpiio.conf") + ":2: CacheMode direct"));
      CHECK_THAT(ran.err, Catch::Contains("Interface mpiio"));
      return true;
    }));
  }
  SECTION("POSIX on a disk reads past the page cache, unflagged") {
    pio::test::TempDir dir("/var/tmp");
    const std::string text = "TestFile " + dir.file("data") + "\nInterface posix\n" +
                             block("ModuleName \"Simple Strided (read)\"\nBufferSizes 64K\n"
                                   "WorkUnits 2\nCacheMode direct\nVerify on\n");
    const auto ran = pio::test::run_config(dir, "direct_disk", text);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      const auto &m = ran.results.at("modules").at(0);
      CHECK(m.at("interface_settings").at("ODirect") == "on");
      CHECK(!has_flag(first_test(ran.results), "page_cache"));
      return true;
    }));
  }
}

// 4 ranks: the next rank is (r + 1) mod P; at 2 ranks it is also the previous one.
TEST_CASE("ReadShift 1 reads the bytes the next rank wrote", "[flags][read_shift][4ranks]") {
  for (const bool fpp : {false, true}) {
    DYNAMIC_SECTION((fpp ? "a file per process" : "one shared file")) {
      pio::test::TempDir dir;
      const std::string layout = fpp ? "FilePerProcess on\n" : "";
      const std::string text =
          "TestFile " + dir.file("data") + "\n" +
          block("ModuleName test_neighbour\nLabel w\nMode write\n" + layout) +
          block("ModuleName test_neighbour\nLabel r\nMode read\nFilesFrom w\nReadShift 1\n"
                "ExpectFrom 1\n" +
                layout) +
          // Unshifted, a rank reads its own bytes (the check of the check).
          block("ModuleName test_neighbour\nLabel own\nMode read\nFilesFrom w\nExpectFrom 0\n" +
                layout);
      const auto ran = pio::test::run_config(dir, "shift", text);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        for (size_t b = 0; b < 3; ++b)
          CHECK(first_test(ran.results, b).at("error").is_null());
        CHECK(ran.results.at("modules").at(1).at("read_shift") == 1);
        return true;
      }));
      REQUIRE(all_ranks(!pio::test::exists(dir.file("data")) &&
                        !pio::test::exists(dir.file("data.0"))));
    }
  }
}

TEST_CASE("ReadShift without FilesFrom is refused at its line", "[flags][read_shift]") {
  pio::test::TempDir dir;
  const std::string text = "TestFile " + dir.file("data") + "\n" +
                           block("ModuleName test_neighbour\nMode read\nReadShift 1\n");
  const auto ran = pio::test::run_config(dir, "shift_alone", text);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err, Catch::Contains(dir.file("shift_alone.conf") + ":5: ReadShift 1"));
    CHECK_THAT(ran.err, Catch::Contains("FilesFrom"));
    return true;
  }));
}

// 4 ranks: on CI's 2 cores only 4 ranks are more ranks than cores without pinning.
TEST_CASE("more ranks than usable cores are flagged oversubscribed",
          "[flags][conditions][4ranks]") {
  pio::test::TempDir dir;
  const std::string text = block("ModuleName test_timed_units\nUnitSeconds 0.002\nUnits 2\n");
  const int cpus = usable_cpus();
  const auto clean = run_pinned(dir, "free", text, false);
  const auto pinned = run_pinned(dir, "pinned", text, true); // one core for every rank
  REQUIRE(all_ranks(clean.exit_code == 0 && pinned.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &p = first_test(pinned.results);
    CHECK(pinned.results.at("hosts").at(0).at("conditions").at("usable_cores") == 1);
    CHECK(p.at("conditions").at("ranks_per_node") == pio::test::size());
    CHECK(has_flag(p, "oversubscribed") == (pio::test::size() > 1));
    const auto &c = first_test(clean.results);
    CHECK(clean.results.at("hosts").at(0).at("conditions").at("usable_cores") == cpus);
    CHECK(has_flag(c, "oversubscribed") == (pio::test::size() > cpus));
    CHECK(well_formed(p.at("flags")));
    return true;
  }));
}

TEST_CASE("an injected slow first repetition is flagged warm_up", "[flags][steadiness]") {
  pio::test::TempDir dir;
  const std::string common = "ModuleName test_timed_units\nUnitSeconds 0.02\nModuleReps 5\n";
  const auto clean = pio::test::run_config(dir, "steady", block(common));
  const auto slow = pio::test::run_config(dir, "slow", block(common + "FirstRepSeconds 0.2\n"));
  REQUIRE(all_ranks(clean.exit_code == 0 && slow.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &s = first_test(slow.results);
    CHECK(has_flag(s, "warm_up"));
    CHECK(flags_of(s.at("reps").at(0).at("flags")).count("warm_up") == 1);
    CHECK(flags_of(s.at("reps").at(1).at("flags")).count("warm_up") == 0);
    if (quiet(first_test(clean.results)))
      CHECK(!has_flag(first_test(clean.results), "warm_up"));
    // The spread and the median's interval are in the summary.
    const auto &st = first_test(clean.results).at("summary").at("steadiness");
    CHECK(st.at("count") == 5);
    CHECK(st.at("median_ci").is_null()); // 5 repetitions give no 95 % interval
    return true;
  }));
}

TEST_CASE("WarmUpReps runs the slow first use first and does not record it: no warm_up flag",
          "[flags][steadiness]") {
  pio::test::TempDir dir;
  // The module's repetition 0 is slow (FirstRepSeconds); with one warm-up that is the warm-up.
  const std::string common = "ModuleName test_timed_units\nUnitSeconds 0.02\nModuleReps 4\n"
                             "FirstRepSeconds 0.2\n";
  const auto warmed = pio::test::run_config(dir, "warmed", block(common + "WarmUpReps 1\n"));
  const auto global = pio::test::run_config(dir, "global", "WarmUpReps 2\n" + block(common));
  REQUIRE(all_ranks(warmed.exit_code == 0 && global.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &t = first_test(warmed.results);
    CHECK(warmed.results.at("modules").at(0).at("warm_up_reps") == 1);
    CHECK(global.results.at("modules").at(0).at("warm_up_reps") == 2);
    REQUIRE(t.at("reps").size() == 4); // ModuleReps recorded, numbered from 0
    for (size_t i = 0; i < 4; ++i) {
      CHECK(t.at("reps").at(i).at("rep") == i);
      // The warm-up's 3 units of 0.2 s are not among them: 3 units of 0.02 s each (0.06 s).
      CHECK(t.at("reps").at(i).at("aggregate_time_s").get<double>() < 0.4);
    }
    CHECK(!has_flag(t, "warm_up"));
    CHECK(first_test(global.results).at("reps").size() == 4);
    CHECK_THAT(warmed.out, Catch::Contains("reps 4 after 1 warm-up"));
    return true;
  }));
}

TEST_CASE("repetitions in two groups are flagged bimodal and wide_spread", "[flags][steadiness]") {
  pio::test::TempDir dir;
  // Repetitions of 60 ms and 1.2 s: 20x apart, so that each group stays tight beside the gap
  // even on a loaded node.
  const std::string common = "ModuleName test_timed_units\nUnitSeconds 0.02\nModuleReps 6\n";
  const auto clean = pio::test::run_config(dir, "one", block(common));
  const auto two = pio::test::run_config(dir, "two", block(common + "RepSeconds 0.02 0.4\n"));
  REQUIRE(all_ranks(clean.exit_code == 0 && two.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &t = first_test(two.results);
    CHECK(has_flag(t, "bimodal"));
    CHECK(has_flag(t, "wide_spread"));
    const auto &c = first_test(clean.results);
    if (quiet(c))
      CHECK(!has_flag(c, "bimodal"));
    const auto &ci = c.at("summary").at("steadiness").at("median_ci");
    REQUIRE(ci.is_object()); // 6 repetitions: the smallest and largest, 96.9 %
    CHECK(ci.at("level").get<double>() == Approx(1 - 2.0 / 64));
    return true;
  }));
}

TEST_CASE("ModuleReps auto stops at its target, or at its time cap with wide_spread",
          "[flags][steadiness]") {
  pio::test::TempDir dir;
  const auto steady = pio::test::run_config(
      dir, "steady", block("ModuleName test_timed_units\nUnitSeconds 0.02\nModuleReps auto 50%\n"));
  const auto noisy =
      pio::test::run_config(dir, "noisy",
                            block("ModuleName test_timed_units\nUnits 1\nModuleReps auto 1% 0.5\n"
                                  "RepSeconds 0.005 0.02 0.01 0.04 0.008\n"));
  REQUIRE(all_ranks(steady.exit_code == 0 && noisy.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &s = first_test(steady.results);
    CHECK(s.at("reps_stop") == "target");
    CHECK(s.at("reps").size() >= 6);
    CHECK(s.at("summary").at("steadiness").at("median_ci").at("half_width").get<double>() <= 0.5);
    CHECK(!has_flag(s, "wide_spread"));
    const auto &n = first_test(noisy.results);
    CHECK(n.at("reps_stop") == "time_cap");
    CHECK(has_flag(n, "wide_spread"));
    CHECK(noisy.results.at("modules").at(0).at("reps_auto").at("target").get<double>() ==
          Approx(0.01));
    return true;
  }));
}

TEST_CASE("bandwidth per node above the node's memory copy rate is flagged memory_bandwidth",
          "[flags][conditions]") {
  pio::test::TempDir dir;
  // 1 TiB in 2 ms: no node copies that fast.
  const auto beyond = pio::test::run_config(
      dir, "beyond",
      block("ModuleName test_timed_units\nUnitSeconds 0.002\nReturnBytes 1099511627776\n"));
  const auto clean = pio::test::run_config(
      dir, "clean", block("ModuleName test_timed_units\nUnitSeconds 0.002\nReturnBytes 4096\n"));
  REQUIRE(all_ranks(beyond.exit_code == 0 && clean.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(beyond.results.at("hosts").at(0).at("conditions").at("memory_copy_MiBps").get<double>() >
          0);
    CHECK(has_flag(first_test(beyond.results), "memory_bandwidth"));
    CHECK(!has_flag(first_test(clean.results), "memory_bandwidth"));
    return true;
  }));
}

TEST_CASE("each host records the most CPUs one of its ranks may run on: 1 when each is bound",
          "[flags][conditions]") {
  const auto cpus_now = [] {
    cpu_set_t mine;
    CPU_ZERO(&mine);
    REQUIRE(::sched_getaffinity(0, sizeof mine, &mine) == 0);
    return mine;
  };
  const auto most_over_ranks = [](int mine) {
    int most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return most;
  };
  const auto rank_cpus = [](const pio::test::Ran &ran) {
    return ran.results.at("hosts").at(0).at("conditions").at("rank_cpus").get<int>();
  };
  const std::string text = block("ModuleName test_timed_units\nUnitSeconds 0.001\n");
  pio::test::TempDir dir;
  const cpu_set_t as_started = cpus_now();
  const int most = most_over_ranks(CPU_COUNT(&as_started));
  const auto free = pio::test::run_config(dir, "free", text);
  // Each rank bound to one CPU of its own set, as mpiexec -bind-to core binds it.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &as_started)) {
      CPU_SET(c, &one);
      break;
    }
  REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
  const auto bound = pio::test::run_config(dir, "bound", text);
  REQUIRE(::sched_setaffinity(0, sizeof as_started, &as_started) == 0);
  REQUIRE(all_ranks(free.exit_code == 0 && bound.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(rank_cpus(free) == most);
    CHECK(rank_cpus(bound) == 1);
    return true;
  }));
}

TEST_CASE("CPU burners that keep the ranks from the CPU are flagged heavy_load; tasks that only "
          "wait beside the ranks are not",
          "[flags][conditions]") {
  std::ifstream psi("/proc/pressure/cpu");
  pio::test::TempDir dir;
  // Twice as many spinning threads as the node has CPUs, from every rank together.
  const int burners = 2 * static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)) / pio::test::size() + 1;
  const std::string burn = "BurnThreads " + std::to_string(burners) + "\n";
  // Units that need the CPU, beside burners of the same priority: the ranks wait.
  const auto busy = pio::test::run_config(
      dir, "busy", block("ModuleName test_timed_units\nUnitSeconds 0.2\nUnitSpins on\n" + burn));
  // Units that sleep, beside burners at nice 19: the burners wait for the CPUs all along (a
  // storage worker kept waiting, to the node's pressure), the ranks get a CPU when they want one.
  const auto beside = pio::test::run_config(
      dir, "beside", block("ModuleName test_timed_units\nUnitSeconds 0.2\nBurnNice 19\n" + burn));
  REQUIRE(all_ranks(busy.exit_code == 0 && beside.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &t = first_test(busy.results);
    CHECK(t.at("conditions").at("cpu_wait_fraction").get<double>() > 0.2);
    REQUIRE(has_flag(t, "heavy_load"));
    CHECK_THAT(flag_reason(t, "heavy_load"), Catch::Contains("a rank of the test waited"));
    // The ranks' own wait, not the burners', decides; on a node loaded by other work (a CI
    // machine running other tests) the ranks may wait too, and then the flag is right.
    const auto &b = first_test(beside.results);
    const double wait = b.at("conditions").at("cpu_wait_fraction").get<double>();
    CHECK(has_flag(b, "heavy_load") == (wait > 0.2));
    if (psi) { // the burners waited all along: the node's pressure alone would have flagged
      const double pressure = b.at("conditions").at("node_cpu_pressure").get<double>();
      CHECK(pressure > 0.5);
      CHECK(wait < pressure - 0.1);
    } else {
      CHECK(b.at("conditions").at("node_cpu_pressure").is_null());
    }
    return true;
  }));
}

TEST_CASE("in unit scope a rank's own time never exceeds the aggregate time, even when rank 0 "
          "starts its units late",
          "[flags][timing]") {
  pio::test::TempDir dir;
  // Rank 0 works 0 s, the others 30 ms; rank 0 leaves each B1 40 ms late.
  const std::string text =
      block("ModuleName test_timed_units\nUnitSeconds 0.03\nRootUnitSeconds 0\nUnits 3\n");
  delay_root_b1 = true;
  const auto ran = pio::test::run_config(dir, "late_root", text);
  delay_root_b1 = false;
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &t = first_test(ran.results);
    const auto &r = t.at("reps").at(0);
    const double own_max = r.at("rank_time_s").at("max").get<double>();
    const double aggregate = r.at("aggregate_time_s").get<double>();
    if (pio::test::size() > 1)
      CHECK(own_max >= 0.09); // the other ranks' 3 x 30 ms
    CHECK(own_max <= aggregate);
    for (const auto &n : t.at("notes"))
      CHECK_THAT(n.get<std::string>(), !Catch::Contains("exceeds the aggregate"));
    return true;
  }));
}
