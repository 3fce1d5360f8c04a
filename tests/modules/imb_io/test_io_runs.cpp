// The IMB-IO family through the harness (IMB 3.2 User Guide §4.2.4, §4.2.5): after every write
// benchmark the file holds, byte for byte, what each rank wrote where the guide's layout puts it
// (individual pointer with the tiled view, explicit offsets, shared pointer in rank order for
// C_ and in any order for P_, a private file per rank); every read verified; the sample counts
// of aggregate and non-aggregate mode; Open_Close leaves no file behind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "backends.hpp"
#include "io_module.hpp"
#include "layout.hpp"
#include "mpi_test.hpp"

using namespace imb::io;
using pio::test::all_ranks;
using pio::test::on_root;

namespace {

const std::int64_t kX = 1000;

std::string block(const std::string &name, const std::string &file, const std::string &extra) {
  return "<ap_module>\nModuleName \"" + name + "\"\nTestFile " + file + "\nMsgLengths " +
         std::to_string(kX) + "\nNpMin " + std::to_string(pio::test::size()) +
         "\nMsgsPerSample 3\nMsgsNonAggr 2\n" + extra + "</ap_module>\n";
}

/// "" if `bytes` is the common file of n transfers of X laid out for `b` on np ranks.
std::string common_file_ok(const Benchmark &b, const std::vector<std::uint8_t> &bytes, int np,
                           std::int64_t n) {
  if (static_cast<std::int64_t>(bytes.size()) != n * kX)
    return "size " + std::to_string(bytes.size()) + ", expected " + std::to_string(n * kX);
  if (b.pos == Positioning::Shared && b.cls == Class::Parallel) {
    // Any order of the n np blocks: parse them greedily, each rank's n times.
    std::vector<int> left(static_cast<size_t>(np), static_cast<int>(n));
    std::int64_t at = 0;
    while (at < n * kX) {
      bool found = false;
      for (int r = 0; r < np && !found; ++r) {
        const Portion p = rank_portion(r, np, kX);
        if (left[static_cast<size_t>(r)] == 0 || p.length == 0 || at + p.length > n * kX)
          continue;
        bool same = true;
        for (std::int64_t k = 0; k < p.length && same; ++k)
          same = static_cast<char>(bytes[static_cast<size_t>(at + k)]) == data_byte(r, k);
        if (same) {
          --left[static_cast<size_t>(r)];
          at += p.length;
          found = true;
        }
      }
      if (!found)
        return "no rank's block at offset " + std::to_string(at);
    }
    return "";
  }
  const int writers = b.cls == Class::Single ? 1 : np;
  for (int r = 0; r < writers; ++r) {
    const Portion p = writers == 1 ? Portion{0, kX} : rank_portion(r, np, kX);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < p.length; ++k) {
        const std::int64_t o = file_offset(b.pos, p, kX, j) + k;
        if (static_cast<char>(bytes[static_cast<size_t>(o)]) != data_byte(r, k))
          return "byte " + std::to_string(o) + " (rank " + std::to_string(r) + ", transfer " +
                 std::to_string(j) + ") differs";
      }
  }
  return "";
}

} // namespace

// 4 ranks: the guide's layouts interleave or order 4 ranks' blocks; ranks 2 and 3 sit where 2 ranks
// never reach.
TEST_CASE("every write benchmark leaves the guide's layout in the file, byte for byte",
          "[imb_io][4ranks]") {
  pio::test::TempDir dir;
  const int np = pio::test::size();
  std::string conf;
  std::vector<std::pair<Benchmark, std::string>> writes; // benchmark, mode
  for (const auto &b : benchmarks()) {
    if (b.action != Action::Write)
      continue;
    for (const std::string mode : {"aggregate", "non-aggregate"}) {
      if (b.nonblocking && mode != "aggregate")
        continue;
      const std::string file = dir.file(b.name + "." + mode);
      const std::string extra = b.nonblocking ? "TargetCpuSecs 0.0005\n" : "Mode " + mode + "\n";
      conf += block(b.name, file, extra);
      writes.push_back({b, mode});
    }
  }
  const auto ran = pio::test::run_config(dir, "writes", conf, /*keep_files=*/true);
  INFO(ran.err);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  // Every rank checks its private files; rank 0 the common ones.
  bool ok = true;
  for (const auto &[b, mode] : writes) {
    const std::int64_t n = mode == "aggregate" ? 3 : 2;
    const std::string file = dir.file(b.name + "." + mode);
    std::string e;
    if (b.pos == Positioning::Priv) {
      const auto bytes = pio::test::read_bytes(file + "." + std::to_string(pio::test::rank()));
      const Portion p = rank_portion(pio::test::rank(), np, kX);
      if (static_cast<std::int64_t>(bytes.size()) != n * p.length)
        e = "private file size " + std::to_string(bytes.size());
      for (std::int64_t j = 0; j < n && e.empty(); ++j)
        for (std::int64_t k = 0; k < p.length && e.empty(); ++k)
          if (static_cast<char>(bytes[static_cast<size_t>(j * p.length + k)]) !=
              data_byte(pio::test::rank(), k))
            e = "private byte " + std::to_string(j * p.length + k) + " differs";
    } else if (pio::test::rank() == 0) {
      e = common_file_ok(b, pio::test::read_bytes(file), b.cls == Class::Single ? 1 : np, n);
    }
    if (!e.empty()) {
      UNSCOPED_INFO(b.name << " " << mode << " rank " << pio::test::rank() << ": " << e);
      ok = false;
    }
  }
  REQUIRE(all_ranks(ok));
  REQUIRE(on_root([&] {
    for (const auto &m : ran.run.modules) {
      INFO(m.module << " " << m.label);
      CHECK(!m.error);
      REQUIRE(m.tests.size() == 1);
      const auto &t = m.tests[0];
      CHECK(!t.error);
      const bool nonaggr = t.params.count("mode") && t.params.at("mode") == "non-aggregate";
      CHECK(t.comm->ops_per_unit == (nonaggr ? 2 : 3));
      if (m.module.find("_iwrite") != std::string::npos) {
        REQUIRE(m.figure);
        REQUIRE(m.figure->tables.size() == 1);
        CHECK(m.figure->tables[0].rows.size() == 1);
      }
    }
    return true;
  }));
}

TEST_CASE("the benchmarks whose calls POSIX has (explicit offsets, private files) run through "
          "Interface posix: the guide's layout byte for byte, reads verified, Open_Close",
          "[imb_io][posix]") {
  pio::test::TempDir dir;
  const int np = pio::test::size();
  const pio::io::Capabilities posix = pio::test::backend_info("posix").capabilities;
  std::string conf = "Interface posix\nVerify on\n";
  std::vector<Benchmark> ran_here;
  for (const auto &b : benchmarks()) {
    const auto wants = needs(b);
    if (b.action == Action::None ||
        !std::all_of(wants.begin(), wants.end(), [&](auto c) { return posix.has(c); }))
      continue;
    conf += block(b.name, dir.file(b.name), is_write(b) ? "Mode aggregate\n" : "");
    ran_here.push_back(b);
  }
  conf += block("Open_Close", dir.file("oc"), "");
  const auto ran = pio::test::run_config(dir, "posix", conf, /*keep_files=*/true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  // S_Write_expl, S_Read_expl, P_Write_expl, P_Read_expl, P_Write_priv, P_Read_priv.
  REQUIRE(all_ranks(ran_here.size() == 6));
  bool ok = true;
  for (const auto &b : ran_here) {
    if (!is_write(b))
      continue;
    const std::string file = dir.file(b.name);
    std::string e;
    if (b.pos == Positioning::Priv) {
      const auto bytes = pio::test::read_bytes(file + "." + std::to_string(pio::test::rank()));
      const Portion p = rank_portion(pio::test::rank(), np, kX);
      if (static_cast<std::int64_t>(bytes.size()) != 3 * p.length)
        e = "private file size " + std::to_string(bytes.size());
      for (std::int64_t j = 0; j < 3 && e.empty(); ++j)
        for (std::int64_t k = 0; k < p.length && e.empty(); ++k)
          if (static_cast<char>(bytes[static_cast<size_t>(j * p.length + k)]) !=
              data_byte(pio::test::rank(), k))
            e = "private byte " + std::to_string(j * p.length + k) + " differs";
    } else if (pio::test::rank() == 0) {
      e = common_file_ok(b, pio::test::read_bytes(file), b.cls == Class::Single ? 1 : np, 3);
    }
    if (!e.empty()) {
      UNSCOPED_INFO(b.name << " rank " << pio::test::rank() << ": " << e);
      ok = false;
    }
  }
  REQUIRE(all_ranks(ok));
  // Open_Close opened, wrote one byte at the start and closed its own file through posix (kept:
  // KeepFiles).
  REQUIRE(all_ranks(pio::test::read_bytes(dir.file("oc.open_close")).size() == 1));
  REQUIRE(on_root([&] {
    for (const auto &m : ran.run.modules) {
      INFO(m.module);
      CHECK(m.interface == "posix");
      CHECK(!m.error);
      for (const auto &t : m.tests)
        CHECK(!t.error);
    }
    return ran.run.modules.size() == 7;
  }));
}

TEST_CASE("every read benchmark returns the file's data", "[imb_io]") {
  pio::test::TempDir dir;
  std::string conf = "Verify on\n";
  for (const auto &b : benchmarks())
    if (b.action == Action::Read)
      conf += block(b.name, dir.file(b.name), b.nonblocking ? "TargetCpuSecs 0.0005\n" : "");
  conf += block("Open_Close", dir.file("oc"), "");
  const auto ran = pio::test::run_config(dir, "reads", conf);
  INFO(ran.err);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("oc.open_close"))));
  REQUIRE(on_root([&] {
    for (const auto &m : ran.run.modules) {
      INFO(m.module);
      CHECK(!m.error);
      for (const auto &t : m.tests)
        CHECK(!t.error);
    }
    CHECK(ran.out.find("# Benchmarking P_Read_shared") != std::string::npos);
    CHECK(ran.out.find("# Benchmarking Open_Close") != std::string::npos);
    return true;
  }));
}

TEST_CASE("Open_Close refuses, on every rank, a file already at its path and leaves it as it was",
          "[imb_io]") {
  pio::test::TempDir dir;
  const std::string theirs = dir.file("oc.open_close");
  pio::test::write_text(theirs, "not the harness's");
  // Rank 0 claims the file; the other ranks learn of the refusal before their time-limit probe
  // opens it, so no rank writes it and none is left in a collective.
  const auto ran = pio::test::run_config(dir, "refused", block("Open_Close", dir.file("oc"), ""));
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code != 0));
  const auto bytes = pio::test::read_bytes(theirs);
  REQUIRE(all_ranks(std::string(bytes.begin(), bytes.end()) == "not the harness's"));
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.size() == 1);
    const auto &m = ran.run.modules[0];
    REQUIRE(m.tests.size() == 1);
    REQUIRE(m.tests[0].error);
    CHECK(m.tests[0].error->rank == 0);
    CHECK(m.tests[0].error->message.find(theirs + " already exists and was not created by this "
                                                  "run") != std::string::npos);
    return true;
  }));
}

namespace {

const Benchmark &named(const std::string &name) {
  for (const auto &b : benchmarks())
    if (b.name == name)
      return b;
  throw std::runtime_error("no IMB-IO benchmark " + name);
}

} // namespace

TEST_CASE("the run-time limit cuts IMB-IO's n_sample and the file still starts with the sample",
          "[imb_io]") {
  pio::test::TempDir dir;
  const int np = pio::test::size();
  // TimeLimit 1e-9 s: n_sample = 1 + secs / t_op = 1 for every benchmark; TimeLimit 0: no cut.
  const std::string conf = block("P_Write_expl", dir.file("cut"), "TimeLimit 0.000000001\n") +
                           block("P_Read_indv", dir.file("read"), "TimeLimit 0.000000001\n") +
                           block("Open_Close", dir.file("oc"), "TimeLimit 0.000000001\n") +
                           block("P_Write_expl", dir.file("full"), "TimeLimit 0\n");
  const auto ran = pio::test::run_config(dir, "cut", "Verify on\n" + conf, /*keep_files=*/true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    REQUIRE(ran.run.modules.size() == 4);
    for (int m = 0; m < 3; ++m) {
      INFO(ran.run.modules[static_cast<size_t>(m)].module);
      CHECK(ran.run.modules[static_cast<size_t>(m)].tests.at(0).comm->ops_per_unit == 1);
    }
    CHECK(ran.run.modules[3].tests.at(0).comm->ops_per_unit == 3);
    // The probe wrote up to n_sample transfers; the sample's one transfer is the file's first.
    auto cut = pio::test::read_bytes(dir.file("cut"));
    REQUIRE(cut.size() >= static_cast<size_t>(kX));
    cut.resize(static_cast<size_t>(kX));
    CHECK(common_file_ok(named("P_Write_expl"), cut, np, 1) == "");
    CHECK(common_file_ok(named("P_Write_expl"), pio::test::read_bytes(dir.file("full")), np, 3) ==
          "");
    CHECK(ran.out.find("#repetitions") != std::string::npos);
    return true;
  }));
}

// 4 ranks: two groups of two ranks, each with its own file, exist only at 4 ranks.
TEST_CASE("Multi 1: each group writes its own file (.g<k>), byte for byte, and every group's row "
          "is printed",
          "[imb_io][4ranks]") {
  const int np = pio::test::size();
  if (np < 2)
    return; // one rank makes one group
  pio::test::TempDir dir;
  // NpMin np / 2: first np / 2 processes per group, np / (np / 2) = 2 groups, then all np.
  const int half = np / 2;
  const std::vector<std::string> names = {"P_Write_indv", "P_Write_expl", "P_Write_shared",
                                          "C_Write_indv", "C_Write_expl", "C_Write_shared"};
  std::string conf;
  for (const auto &name : names)
    conf += "<ap_module>\nModuleName " + name + "\nTestFile " + dir.file(name) + "\nMsgLengths " +
            std::to_string(kX) + "\nNpMin " + std::to_string(half) +
            "\nMulti 1\nMsgsPerSample 3\n</ap_module>\n";
  const auto ran = pio::test::run_config(dir, "multi", conf, /*keep_files=*/true);
  INFO(ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    for (const auto &name : names) {
      INFO(name);
      for (int g = 0; g < 2; ++g)
        CHECK(common_file_ok(named(name),
                             pio::test::read_bytes(dir.file(name) + ".g" + std::to_string(g)), half,
                             3) == "");
      CHECK(common_file_ok(named(name), pio::test::read_bytes(dir.file(name)), np, 3) == "");
      CHECK(ran.out.find("# Benchmarking Multi-" + name) != std::string::npos);
    }
    const auto &t = ran.run.modules.at(0).tests.at(0);
    CHECK(t.groups == 2);
    CHECK(t.params.at("multi_outflag") == "1");
    CHECK(t.params.at("group_ranks") == (np == 4 ? "0 1;2 3" : "0;1"));
    CHECK(t.reps.at(0).phases.at(0).groups.size() == 2);
    CHECK(ran.out.find("# Group  1:") != std::string::npos);
    CHECK(ran.out.find("        Group       #bytes") != std::string::npos);
    return true;
  }));
}
