// Test-only module: throws (or aborts the process) in a chosen method on a chosen rank, so the
// error consensus of docs/reference/reliability.md can be tested in every one of the seven methods.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "pio/pio.hpp"

namespace {

class Faults : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    where_ = ctx.settings.text("FailIn");
    suffix_ = ctx.settings.has("FileSuffix") ? ctx.settings.text("FileSuffix") : "";
    fail_rank_ = ctx.settings.integer("FailRank");
    fail_test_ = ctx.settings.integer("FailTest");
    crash_ = ctx.settings.flag("Crash");
    segv_ = ctx.settings.flag("Segv");
    exit_ = ctx.settings.flag("Exit");
    bytes_ = ctx.settings.integer("ReturnBytes");
    move_away_ = ctx.settings.has("MoveAway") ? ctx.settings.text("MoveAway") : "";
    hang_ = ctx.settings.flag("Hang");
    abort_ = ctx.settings.flag("Abort");
    rank_ = ctx.rank;
    if (ctx.validate_only) // the pre-flight check: no file, and faults only in the run
      where_ = "none";
    if (!ctx.validate_only && ctx.settings.has("ClaimFile") &&
        !ctx.settings.text("ClaimFile").empty() && ctx.rank == 0) {
      const auto slash = ctx.test_file.find_last_of('/');
      const std::string dir = slash == std::string::npos ? "." : ctx.test_file.substr(0, slash);
      const std::string path = dir + "/" + ctx.settings.text("ClaimFile");
      ctx.claim_file(path);
      std::FILE *f = std::fopen(path.c_str(), "w");
      if (!f)
        throw pio::Error("cannot create " + path);
      std::fputs("claimed", f);
      std::fclose(f);
    }
    maybe_fail("init_module", 0);
    std::vector<pio::TestSpec> tests;
    for (std::int64_t i = 0; i < ctx.settings.integer("Tests"); ++i) {
      pio::TestSpec t;
      t.label = "t" + std::to_string(i);
      t.buffer_size = 8;
      t.file = ctx.settings.flag("UseFile") ? pio::FileUse::Shared : pio::FileUse::None;
      t.phases[0].work_units = 3;
      // A module bug on one rank: it declares another number of work units than the others.
      if (ctx.settings.integer("UnitsOnFailRank") > 0 && ctx.rank == fail_rank_)
        t.phases[0].work_units = ctx.settings.integer("UnitsOnFailRank");
      t.file_suffix = suffix_;
      t.keep_file = ctx.settings.flag("KeepFile");
      group_size_ = static_cast<int>(ctx.settings.integer("GroupSize"));
      const int count = static_cast<int>(ctx.settings.integer("GroupCount"));
      group_count_ = count > 0 ? count : group_size_ > 0 ? std::max(1, ctx.size / group_size_) : 1;
      check_all_ = ctx.settings.flag("CheckAll");
      if (group_size_ > 0)
        t.groups = pio::RankGroups::blocks(group_size_, group_count_);
      if (ctx.settings.flag("Comm")) {
        pio::CommSemantics comm;
        comm.ops_per_unit = 4;
        comm.time_scale = 0.5;
        comm.message_bytes = 8;
        comm.bytes_scale = 2.0;
        comm.report = pio::Report::Both;
        t.comm = comm;
      }
      tests.push_back(t);
    }
    return tests;
  }
  void describe_test(pio::TestContext &t) override {
    test_ = t.test_index;
    io_ = t.io;
    maybe_fail("describe_test", test_);
    if (group_size_ > 0) {
      // The group communicator is the test's: its size matches GroupSize (collective, so only
      // in runs that inject no failure here).
      int members = 0;
      pio::mpi_check(MPI_Allreduce(&one_, &members, 1, MPI_INT, MPI_SUM, t.comm), "MPI_Allreduce");
      if (members != group_size_ || t.size != group_size_ || t.group >= t.groups)
        throw pio::Error("group communicator of size " + std::to_string(members) + ", expected " +
                         std::to_string(group_size_));
    }
    if (check_all_)
      check_all(t);
    if (t.test_index > 0 && t.spec().keep_file && io_) {
      // A kept file still holds what the previous test wrote.
      char got[8] = {0};
      io_->run(transfer(pio::io::Direction::Read, got, 0));
      if (std::string(got, 8) != "pio-test")
        throw pio::Error("the file of the previous test is gone", "KeepFile must keep it");
    }
  }
  void before_work_unit(pio::UnitContext &) override { maybe_fail("before_work_unit", test_); }
  std::int64_t work_unit(pio::UnitContext &u) override {
    maybe_fail("work_unit", test_);
    if (io_) {
      char data[8] = {'p', 'i', 'o', '-', 't', 'e', 's', 't'};
      io_->run(
          transfer(pio::io::Direction::Write, data, (u.unit * u.test->size + u.test->rank) * 8));
    }
    return bytes_;
  }
  void after_work_unit(pio::UnitContext &) override { maybe_fail("after_work_unit", test_); }
  void cleanup_test(pio::TestContext &t) override { maybe_fail("cleanup_test", t.test_index); }
  void cleanup_module(const pio::ModuleContext &ctx) override {
    // A directory that vanishes during the run (e.g. the results file's): renamed away.
    if (!move_away_.empty() && ctx.rank == 0 && !ctx.validate_only)
      std::rename(move_away_.c_str(), (move_away_ + ".moved").c_str());
    maybe_fail("cleanup_module", 0);
  }

private:
  /// TestContext::all must hold every rank of every group of the test, in world order: ranks
  /// 0 .. GroupSize x groups - 1 (all ranks without GroupSize).
  void check_all(const pio::TestContext &t) const {
    if (t.all == MPI_COMM_NULL)
      throw pio::Error("TestContext::all is MPI_COMM_NULL on rank " + std::to_string(rank_));
    int n = 0;
    pio::mpi_check(MPI_Comm_size(t.all, &n), "MPI_Comm_size");
    std::vector<int> members(static_cast<size_t>(n));
    pio::mpi_check(MPI_Allgather(&rank_, 1, MPI_INT, members.data(), 1, MPI_INT, t.all),
                   "MPI_Allgather");
    const int expected = group_size_ > 0 ? group_size_ * group_count_ : t.module->size;
    std::string got;
    bool ok = n == expected;
    for (int k = 0; k < n; ++k) {
      got += (k > 0 ? " " : "") + std::to_string(members[static_cast<size_t>(k)]);
      ok = ok && members[static_cast<size_t>(k)] == k;
    }
    if (!ok)
      throw pio::Error("TestContext::all holds ranks " + got + ", expected 0.." +
                       std::to_string(expected - 1));
  }

  void maybe_fail(const char *method, std::int64_t test) {
    if (where_ != method || rank_ != fail_rank_ ||
        (test != fail_test_ && where_ != "init_module" && where_ != "cleanup_module"))
      return;
    if (crash_)
      std::abort();
    if (segv_)
      std::raise(SIGSEGV);
    if (exit_)
      std::exit(0); // what a module must never do: the harness must not report success
    if (abort_)
      MPI_Abort(MPI_COMM_WORLD, 3); // nor this: the harness names where it happened
    while (hang_) // a rank stuck for good: the others wait for it at the next collective
      std::this_thread::sleep_for(std::chrono::seconds(1));
    throw pio::Error(std::string("injected failure in ") + method + " on rank " +
                         std::to_string(rank_),
                     "this is the fault-injection test module");
  }
  std::string where_;
  std::int64_t fail_rank_ = 0, fail_test_ = 0;
  bool crash_ = false;
  bool segv_ = false;
  bool exit_ = false;
  std::int64_t bytes_ = 8;
  std::string move_away_;
  bool hang_ = false;
  bool abort_ = false;
  std::string suffix_;
  int rank_ = 0;
  std::int64_t test_ = 0;
  pio::io::Interface *io_ = nullptr; ///< the test's file, if it has one
  pio::io::Extent at_;               ///< the 8 bytes the transfer below moves

  /// 8 bytes at `offset` through the seam (explicit offset, independent, blocking).
  pio::io::Transfer transfer(pio::io::Direction d, char *bytes, std::int64_t offset) {
    at_ = {offset, 8};
    pio::io::Transfer t;
    t.direction = d;
    t.buffer = bytes;
    t.count = 8;
    t.offset = offset;
    t.extents = &at_;
    t.extent_count = 1;
    return t;
  }
  int one_ = 1;
  int group_size_ = 0;
  int group_count_ = 1;
  bool check_all_ = false;
};

pio::ModuleInfo faults_info() {
  pio::ModuleInfo m("test_faults", pio::make_module<Faults>);
  m.summary = "test only: fails in a chosen method on a chosen rank";
  m.reference = "tests/core";
  m.directives = {
      {"FailIn",
       pio::DirectiveType::Text,
       "none",
       "method that fails",
       {"none", "init_module", "describe_test", "before_work_unit", "work_unit", "after_work_unit",
        "cleanup_test", "cleanup_module"}},
      pio::DirectiveSpec{"FailRank", pio::DirectiveType::Integer, "0", "rank that fails"}.at_least(
          0),
      pio::DirectiveSpec{"FailTest", pio::DirectiveType::Integer, "0", "test index that fails"}
          .at_least(0),
      pio::DirectiveSpec{"Tests", pio::DirectiveType::Integer, "2", "number of tests"}.at_least(0),
      {"UseFile", pio::DirectiveType::Flag, "on", "open the test file"},
      {"Crash", pio::DirectiveType::Flag, "off", "abort the process instead of throwing"},
      {"Hang", pio::DirectiveType::Flag, "off", "never return instead of throwing"},
      {"Segv", pio::DirectiveType::Flag, "off", "raise SIGSEGV instead of throwing"},
      {"Exit", pio::DirectiveType::Flag, "off", "call exit(0) instead of throwing"},
      {"Abort", pio::DirectiveType::Flag, "off", "call MPI_Abort instead of throwing"},
      pio::DirectiveSpec{"UnitsOnFailRank", pio::DirectiveType::Integer, "0",
                         "FailRank declares this many work units per test, the others 3 (0 = 3)"}
          .at_least(0),
      {"ReturnBytes", pio::DirectiveType::Integer, "8", "what work_unit returns"},
      {"MoveAway", pio::DirectiveType::Text, "",
       "cleanup_module on rank 0 renames this path to PATH.moved"},
      {"FileSuffix", pio::DirectiveType::Text, "", "TestSpec::file_suffix of every test"},
      {"KeepFile", pio::DirectiveType::Flag, "off", "TestSpec::keep_file of every test"},
      {"ClaimFile", pio::DirectiveType::Text, "",
       "init_module claims this file (relative to TestFile's directory) and creates it"},
      pio::DirectiveSpec{"GroupSize", pio::DirectiveType::Integer, "0",
                         "run each test in groups of this many consecutive ranks (0 = all)"}
          .at_least(0),
      pio::DirectiveSpec{"GroupCount", pio::DirectiveType::Integer, "0",
                         "groups of GroupSize ranks (0 = as many as fit); the rest idle"}
          .at_least(0),
      {"CheckAll", pio::DirectiveType::Flag, "off",
       "describe_test checks TestContext::all: every rank of every group, in world order"},
      {"Comm", pio::DirectiveType::Flag, "off",
       "declare CommSemantics{4 ops, time scale 0.5, 8-byte messages, bytes scale 2}"}};
  return m;
}

/// The same module under a second name, whose blocks turn UseFile off: tests of FileUse::None.
pio::ModuleInfo nofile_info() {
  pio::ModuleInfo m = faults_info();
  m.name = "test_nofile";
  m.summary = "test only: the fault module, for tests that ask for no file";
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{faults_info(), nofile_info()})
