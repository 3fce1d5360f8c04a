// Interface io_uring through the harness (docs/reference/interfaces.md, "io_uring";
// docs/reference/timing.md, "Queue depth"): the files random_offsets (a file per rank) and
// simple_strided (one shared file) write through io_uring at QueueDepth 1 and 8 are byte for byte
// posix's, Verify passing; at QueueDepth 8 in phase scope the units overlap and the results say so;
// every phase carries its per-operation latencies, one per transfer, with ordered percentiles, in
// the JSON and on the console; the options' errors stop the run at their file:line before any I/O
// (a QueueDepth out of its limits, ODirect on tmpfs, a misspelt option); a write the file-size
// limit cuts short on one rank fails the test on every rank, naming the call, the file and the
// offset, without a hang.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>
#include <string>
#include <vector>

#include "config_stop.hpp"
#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using namespace pio::test;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A random_offsets block's lines writing `file` (a file per rank), then `extra`.
std::string random_block(const std::string &file, const std::string &extra) {
  return "<ap_module>\n  ModuleName random_offsets\n  Mode write\n  TestFile \"" + file +
         "\"\n  BufferSizes 4K\n  FileSize 64K\n  WorkUnits 32\n  TimingScope phase\n" + extra +
         "</ap_module>\n";
}

/// A simple_strided block's lines writing `file` (shared), then `extra`.
std::string strided_block(const std::string &file, const std::string &extra) {
  return "<ap_module>\n  ModuleName simple_strided\n  Mode write\n  TestFile \"" + file +
         "\"\n  BufferSizes 8K\n  StripSize 1K\n  WorkUnits 6\n  TimingScope phase\n" + extra +
         "</ap_module>\n";
}

/// "" when the phase's latency is whole: count operations, min <= p50 <= ... <= max, the mean
/// within them; else what is wrong.
std::string check_latency(const nlohmann::json &phase, std::int64_t count) {
  if (!phase.contains("latency"))
    return "no latency in " + phase.dump();
  const auto &l = phase["latency"];
  if (l["count"] != count)
    return "latency count " + l["count"].dump() + ", expected " + std::to_string(count);
  double last = l["min_us"];
  for (const char *p : {"p50", "p90", "p99", "p99.9"}) {
    const double v = l["percentiles_us"][p];
    if (!(v >= last))
      return std::string(p) + " below the one before: " + l.dump();
    last = v;
  }
  const double max = l["max_us"], mean = l["mean_us"], min = l["min_us"];
  if (!(max >= last) || !(mean >= min && mean <= max) || !(min > 0))
    return "latency not ordered: " + l.dump();
  return "";
}

} // namespace

TEST_CASE("io_uring at QueueDepth 1 and 8 writes posix's bytes; the units overlap at 8; "
          "latencies per transfer",
          "[io_uring_config]") {
  TempDir dir;
  struct Way {
    const char *name, *lines;
  };
  const std::vector<Way> ways = {{"posix", "  Interface posix\n"},
                                 {"qd1", "  Interface io_uring\n"},
                                 {"qd8", "  Interface io_uring\n  QueueDepth 8\n"}};
  std::string config = "TestFile \"" + dir.file("unused") + "\"\nVerify on\nKeepFiles on\n";
  for (const Way &w : ways)
    config += random_block(dir.file(std::string("rnd-") + w.name), w.lines) +
              strided_block(dir.file(std::string("str-") + w.name), w.lines);
  // Reads at depth 8 with Verify timed: every unit's bytes checked as its transfer finishes.
  config += "<ap_module>\n  ModuleName random_offsets\n  Mode read\n  Verify timed\n"
            "  TestFile \"" +
            dir.file("rnd-read") +
            "\"\n  BufferSizes 4K\n  FileSize 64K\n  WorkUnits 32\n  TimingScope phase\n"
            "  Interface io_uring\n  QueueDepth 8\n</ap_module>\n";
  const auto ran = run_config(dir, "uring", config, true);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    problem = result_errors(ran.results);
    const auto &m = ran.results["modules"];
    for (size_t b = 0; b < m.size() && problem.empty(); ++b) {
      const auto &phase = m[b]["tests"][0]["reps"][0]["phases"][0];
      const bool uring = m[b]["interface"] == "io_uring";
      const bool deep = uring && m[b]["interface_settings"]["QueueDepth"] == "8";
      if (uring && m[b]["interface_settings"] != nlohmann::json{{"QueueDepth", deep ? "8" : "1"},
                                                                {"RegisteredBuffers", "off"},
                                                                {"RegisteredFiles", "off"},
                                                                {"SqPoll", "off"},
                                                                {"ODirect", "off"}})
        problem = "settings: " + m[b]["interface_settings"].dump();
      else if (phase.value("units_overlapped", false) != deep)
        problem = "block " + std::to_string(b) + " units_overlapped: " + phase.dump();
      else if (!uring && phase.contains("latency"))
        problem = "posix has latencies: " + phase.dump();
      else if (uring && m[b]["module"] == "random_offsets") // one 4 KiB transfer per unit
        problem = check_latency(phase, 32 * size());
      else if (uring) // simple_strided: the operations are the unit's extents
        problem = phase.contains("latency") ? check_latency(phase, phase["latency"]["count"])
                                            : "no latency: " + phase.dump();
    }
    if (problem.empty() && !contains(ran.out, "clat ("))
      problem = "the console shows no latencies";
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
  // Byte for byte posix's files, at both depths.
  bool same = true;
  for (const char *depth : {"qd1", "qd8"}) {
    const std::string r = "." + std::to_string(rank());
    same = same && read_bytes(dir.file(std::string("rnd-") + depth + r)) ==
                       read_bytes(dir.file("rnd-posix" + r));
    same = same &&
           read_bytes(dir.file(std::string("str-") + depth)) == read_bytes(dir.file("str-posix"));
  }
  REQUIRE(all_ranks(same && !read_bytes(dir.file("str-posix")).empty()));
}

TEST_CASE("io_uring's option errors stop the run at their file:line", "[io_uring_config]") {
  SECTION("QueueDepth below its limit") {
    expect_config_stop("TestFile \"@DIR@/x\"\n" +
                           random_block("@DIR@/t", "  Interface io_uring\n  QueueDepth 0\n"),
                       "bad.conf:11: QueueDepth", "at least 1");
  }
  SECTION("ODirect on with the test file on tmpfs") {
    expect_config_stop("TestFile \"@DIR@/x\"\n" +
                           random_block("@SHM@/t", "  Interface io_uring\n  ODirect on\n"),
                       "bad.conf:11: ODirect on: the test file ",
                       "would be on tmpfs, which has no storage below its page cache");
  }
  SECTION("a misspelt option outside the blocks") {
    expect_config_stop("TestFile \"@DIR@/x\"\nQueueDept 8\n" +
                           random_block("@DIR@/t", "  Interface io_uring\n"),
                       "bad.conf:2: unknown directive 'QueueDept'", "QueueDepth");
  }
  SECTION("a misspelt option in a block") {
    expect_config_stop("TestFile \"@DIR@/x\"\n" +
                           random_block("@DIR@/t", "  Interface io_uring\n  QueueDept 8\n"),
                       "bad.conf:11:", "QueueDept");
  }
}

TEST_CASE("io_uring: a write cut short on one rank fails the test on every rank, naming the "
          "call, the file and the offset",
          "[io_uring_config]") {
  TempDir dir;
  const bool limited = rank() == size() - 1;
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  void (*previous)(int) = std::signal(SIGXFSZ, SIG_IGN);
  if (limited) { // the fifth 64 KiB block of its file is cut at 1000 bytes, the rest fails
    rlimit l = old;
    l.rlim_cur = 4 * 65536 + 1000;
    setrlimit(RLIMIT_FSIZE, &l);
  }
  const std::string config =
      "TestFile \"" + dir.file("unused") +
      "\"\n<ap_module>\n  ModuleName sequential\n  Mode write\n  TestFile \"" + dir.file("t") +
      "\"\n  BufferSizes 64K\n  WorkUnits 16\n  TimingScope phase\n  Interface io_uring\n"
      "  QueueDepth 8\n</ap_module>\n";
  const auto ran = run_config(dir, "short", config);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code != 0));
  std::string problem;
  if (rank() == 0) {
    const auto &t = ran.results["modules"][0]["tests"][0];
    const std::string message = t["error"].is_null() ? "" : t["error"]["message"];
    const std::string file = dir.file("t") + "." + std::to_string(size() - 1);
    if (!contains(message, "io_uring write of " + file + " at offset ") ||
        !contains(message, "File too large") || t["error"]["rank"] != size() - 1)
      problem = "error: " + t["error"].dump();
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}
