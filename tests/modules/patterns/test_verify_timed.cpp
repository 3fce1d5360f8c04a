// Verify timed (docs/reference/timing.md, "Verification"): the pattern engine's work unit stamps
// what it writes and checks what it reads, as IOR -R checks inside its timed loop; the untimed
// hooks verify nothing. Which method throws on a corrupted byte shows where the check runs.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "blocks_module.hpp"
#include "mpi_test.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "pio/stamp.hpp"

using pio::VerifyMode;
using pio::test::all_ranks;
using pio::test::flip_file_byte;
using pio::test::on_root;

namespace {

/// The first error a hook threw on this rank, and which hook threw it.
struct Failure {
  std::string hook, message;
};

/// Runs BlocksModule's two units in `mode` under `verify` by calling the module's methods as the
/// harness does. Read modes: byte 5 of the last rank's second unit is corrupted after the file
/// is prepared. Write modes: the same byte is corrupted after that unit's work_unit, before its
/// after_work_unit. Independent I/O without a file view, so rank 0's corruption is at file
/// offsets whatever view the engine set.
Failure run_units(const std::string &mode, VerifyMode verify, std::int64_t bad) {
  pio::test::TempDir dir;
  pio::test::BlocksTest bt(dir.file("v.dat"), mode, verify, false);
  auto &module = bt.module;
  auto &file = bt.file;
  auto &test = bt.test;
  module.describe_test(test);
  const bool writes = mode == "write" || mode == "re-write";
  if (!writes)
    flip_file_byte(file.get(), bad);

  Failure failure;
  auto call = [&](const char *hook, auto &&method) {
    if (!failure.hook.empty())
      return;
    try {
      method();
    } catch (const pio::Error &e) {
      failure = {hook, e.what()};
    }
  };
  for (std::int64_t u = 0; u < 2; ++u) {
    pio::UnitContext unit;
    unit.test = &test;
    unit.unit = u;
    unit.units = 2;
    call("before_work_unit", [&] { module.before_work_unit(unit); });
    call("work_unit", [&] { module.work_unit(unit); });
    if (writes && u == 1)
      flip_file_byte(file.get(), bad);
    call("after_work_unit", [&] { module.after_work_unit(unit); });
  }
  module.cleanup_test(test);
  return failure;
}

std::string config(const pio::test::TempDir &dir, const std::string &file, const std::string &mode,
                   const std::string &verify, bool collective) {
  return "TestFile " + dir.file(file) + "\nKeepFiles on\nVerify " + verify + "\nCollective " +
         (collective ? "on" : "off") + "\n<ap_module>\nModuleName \"Simple Strided (" + mode +
         ")\"\nBufferSizes 768\nStripSize 256\nWorkUnits 3\nHeaderOffset 100\n</ap_module>\n";
}

} // namespace

TEST_CASE("Verify timed: a corrupted byte fails the read inside work_unit", "[verify_timed]") {
  const int rank = pio::test::rank(), size = pio::test::size();
  const std::int64_t bad = (1 * size + (size - 1)) * 64 + 5; // the last rank's second unit
  const bool mine = rank == size - 1;
  const std::string at = "rank " + std::to_string(rank) + ", file offset " + std::to_string(bad);
  for (const std::string mode : {"read", "re-read", "read-modify-write"}) {
    DYNAMIC_SECTION(mode) {
      const Failure timed = run_units(mode, VerifyMode::Timed, bad);
      const Failure untimed = run_units(mode, VerifyMode::Untimed, bad);
      INFO("timed: " << timed.hook << ": " << timed.message);
      INFO("on: " << untimed.hook << ": " << untimed.message);
      // Only the reader of the byte fails: under timed in the unit, with the data-read message,
      // under on (unchanged) in after_work_unit.
      const bool timed_ok =
          mine
              ? timed.hook == "work_unit" &&
                    timed.message.find("verification failed (data read): " + at + ": expected") == 0
              : timed.hook.empty();
      const std::string untimed_what =
          mode == "read-modify-write" ? "modified data read back" : "data read";
      const bool untimed_ok =
          mine ? untimed.hook == "after_work_unit" &&
                     untimed.message.find("verification failed (" + untimed_what + "): " + at) == 0
               : untimed.hook.empty();
      CHECK(timed_ok);
      CHECK(untimed_ok);
      REQUIRE(all_ranks(timed_ok && untimed_ok));
    }
  }
}

TEST_CASE("Verify timed: written data is not read back; Verify on reads it back after the unit",
          "[verify_timed]") {
  const int rank = pio::test::rank(), size = pio::test::size();
  const std::int64_t bad = (1 * size + (size - 1)) * 64 + 5;
  const bool mine = rank == size - 1;
  for (const std::string mode : {"write", "re-write"}) {
    DYNAMIC_SECTION(mode) {
      // The byte changes on disk after the unit wrote it: a read-back check (on) sees it, the
      // timed engine, which does no untimed verification, does not.
      const Failure timed = run_units(mode, VerifyMode::Timed, bad);
      const Failure untimed = run_units(mode, VerifyMode::Untimed, bad);
      INFO("timed: " << timed.hook << ": " << timed.message);
      INFO("on: " << untimed.hook << ": " << untimed.message);
      const bool ok = timed.hook.empty() &&
                      (mine ? untimed.hook == "after_work_unit" &&
                                  untimed.message.find("read back): rank " + std::to_string(rank) +
                                                       ", file offset " + std::to_string(bad) +
                                                       ":") != std::string::npos
                            : untimed.hook.empty());
      CHECK(ok);
      REQUIRE(all_ranks(ok));
    }
  }
}

TEST_CASE("Verify timed writes the byte-exact file Verify on writes", "[verify_timed]") {
  for (const std::string mode : {"write", "re-write", "read-modify-write"})
    for (bool collective : {false, true}) {
      DYNAMIC_SECTION(mode << " collective " << collective) {
        pio::test::TempDir dir;
        const auto on =
            pio::test::run_config(dir, "on", config(dir, "on.dat", mode, "on", collective));
        const auto timed = pio::test::run_config(
            dir, "timed", config(dir, "timed.dat", mode, "timed", collective));
        REQUIRE(all_ranks(on.exit_code == 0 && timed.exit_code == 0));
        REQUIRE(on_root([&] {
          const auto a = pio::test::read_bytes(dir.file("on.dat"));
          const auto b = pio::test::read_bytes(dir.file("timed.dat"));
          // 3 units x 3 strips of 256 bytes per rank after a 100-byte header.
          CHECK(a.size() == static_cast<size_t>(100 + 3 * 768 * pio::test::size()));
          CHECK(a == b);
          CHECK(on.results.at("modules").at(0).at("verify") == "on");
          CHECK(timed.results.at("modules").at(0).at("verify") == "timed");
          return a.size() > 100 && a == b;
        }));
      }
    }
}

TEST_CASE("Verify timed: read modes pass over intact data", "[verify_timed]") {
  for (const std::string mode : {"read", "re-read", "read-modify-write"})
    for (bool collective : {false, true}) {
      DYNAMIC_SECTION(mode << " collective " << collective) {
        pio::test::TempDir dir;
        const auto ran =
            pio::test::run_config(dir, "r", config(dir, "r.dat", mode, "timed", collective));
        INFO(ran.err);
        REQUIRE(all_ranks(ran.exit_code == 0));
        REQUIRE(on_root([&] {
          const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
          const int factor = mode == "read-modify-write" ? 2 : 1;
          CHECK(t.at("reps").at(0).at("bytes") == factor * 3 * 768 * pio::test::size());
          return t.at("error").is_null();
        }));
      }
    }
}

TEST_CASE("Verify with a bad value, or timed in a module that cannot, is an error at its line",
          "[verify_timed]") {
  struct Case {
    std::string module, verify, where, says;
  };
  const std::vector<Case> cases = {
      {"\"Simple Strided (read)\"", "sometimes", "e.conf:5: Verify",
       "'sometimes' is not one of off, on, timed"},
      {"PingPong", "timed", "e.conf:5: Verify", "cannot run with Verify timed"},
      {"beff", "timed", "e.conf:5: Verify", "cannot run with Verify timed"},
  };
  for (const auto &c : cases) {
    DYNAMIC_SECTION(c.module << " Verify " << c.verify) {
      pio::test::TempDir dir;
      const auto ran =
          pio::test::run_config(dir, "e",
                                "TestFile " + dir.file("e.dat") + "\n\n<ap_module>\nModuleName " +
                                    c.module + "\nVerify " + c.verify + "\n</ap_module>\n");
      INFO(ran.err);
      // exit 2 on every rank; rank 0 says where and what, before any results are written.
      REQUIRE(all_ranks(ran.exit_code == 2 && ran.results.is_null()));
      REQUIRE(all_ranks(pio::test::rank() != 0 || (ran.err.find(c.where) != std::string::npos &&
                                                   ran.err.find(c.says) != std::string::npos)));
    }
  }
}

TEST_CASE("Verify timed through the harness: a wrong byte fails the read test, no hang",
          "[verify_timed]") {
  // test_misread: the last rank reads unit 1 one byte off, so it finds at file offset base + i
  // the stamp of base + i + 1; the first i where the two differ is the byte reported.
  const int size = pio::test::size();
  const int reader = size - 1;
  const std::int64_t base = (1 * size + reader) * 64;
  std::int64_t bad = base;
  while (pio::stamp_byte(reader, bad + 1) == pio::stamp_byte(reader, bad))
    ++bad;
  for (const char *scope : {"unit", "phase"})
    for (bool collective : {false, true}) {
      DYNAMIC_SECTION("TimingScope " << scope << " collective " << collective) {
        pio::test::TempDir dir;
        const auto ran = pio::test::run_config(
            dir, "m",
            "TestFile " + dir.file("m.dat") + "\nVerify timed\nCollective " +
                (collective ? "on" : "off") + "\n<ap_module>\nModuleName test_misread\nMode " +
                "read\nTimingScope " + scope + "\n</ap_module>\n");
        REQUIRE(all_ranks(ran.exit_code == 1));
        REQUIRE(on_root([&] {
          const std::string err =
              ran.results.at("modules").at(0).at("tests").at(0).at("error").at("message");
          INFO(err);
          const std::string want = "verification failed (data read): rank " +
                                   std::to_string(reader) + ", file offset " + std::to_string(bad) +
                                   ": expected ";
          CHECK(err.find(want) != std::string::npos);
          return err.find(want) != std::string::npos;
        }));
      }
    }
}
