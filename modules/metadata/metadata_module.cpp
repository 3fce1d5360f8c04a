// metadata: mdtest's phases (mdtest in the IOR 3.3 distribution; IO500's mdtest-easy and
// mdtest-hard) as pio-bench tests whose figure of merit is operations per second: create,
// stat, read, find and remove of Items files per rank in a tree per rank (easy) or one shared
// tree (hard). One work unit is a whole phase, timed between the harness's barriers, so the
// aggregate rate is the items of all ranks over the slowest rank's phase, as mdtest reports it.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "find_walk.hpp"
#include "item_ops.hpp"
#include "pio/pio.hpp"
#include "stonewall.hpp"
#include "test_dir.hpp"
#include "tree.hpp"

namespace {

using namespace pio::metadata;

enum class Op { Create, Stat, Read, Find, Remove };
const char *const kOpNames[] = {"create", "stat", "read", "find", "remove"};

Op op_from(const std::string &name) {
  for (int k = 0; k < 5; ++k)
    if (name == kOpNames[k])
      return static_cast<Op>(k);
  throw pio::Error("unknown phase " + name, "use create, stat, read, find or remove");
}

/// What one stonewalled create did, for the figure (rank 0).
struct StonewallRow {
  std::string test;
  int rep = 0;
  StonewallOutcome o;
};

class MetadataModule : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    const auto &s = ctx.settings;
    g_.top = ctx.test_file;
    g_.layout = s.text("Mode") == "hard" ? Layout::Hard : Layout::Easy;
    g_.items = s.integer("Items");
    g_.depth = static_cast<int>(s.integer("Depth"));
    g_.branching = static_cast<int>(s.integer("Branching"));
    if (g_.nodes() > 1000000)
      throw pio::Error("a tree of depth " + std::to_string(g_.depth) + " and branching " +
                           std::to_string(g_.branching) + " has " + std::to_string(g_.nodes()) +
                           " directories",
                       "use at most 1000000 directories per tree (lower Depth or Branching)");
    size_ = s.size("FileSize");
    shift_ = s.integer("RankShift");
    stonewall_s_ = s.real("StonewallTime");
    keep_ = s.flag("KeepTree");
    mpiio_ = s.text("ItemCalls") == "mpiio";
    rule_.name_glob = s.text("FindName");
    rule_.size = s.integer("FindSize");
    find_all_ = s.text("FindRanks") == "all";
    bool created = false;
    std::vector<pio::TestSpec> tests;
    for (const auto &name : s.texts("Phases")) {
      const Op op = op_from(name);
      if (op == Op::Create)
        created = true;
      else if (!created)
        throw pio::Error("Phases: " + name + " comes before create",
                         "list create first, e.g. Phases create stat read remove");
      pio::TestSpec t;
      t.label = std::string(layout_name(g_.layout)) + " " + name;
      t.buffer_size = size_;
      t.file = pio::FileUse::None;
      t.merit = pio::Merit::Operations;
      t.params = {{"phase", name},
                  {"mode", layout_name(g_.layout)},
                  {"items_per_rank", std::to_string(g_.items)},
                  {"depth", std::to_string(g_.depth)},
                  {"branching", std::to_string(g_.branching)},
                  {"file_size", std::to_string(size_)},
                  {"rank_shift", std::to_string(shift_)},
                  {"stonewall_s", std::to_string(stonewall_s_)},
                  {"item_calls", mpiio_ ? "mpiio" : "posix"}};
      if (op == Op::Find)
        t.params["find"] = rule_.name_glob + " size " + std::to_string(rule_.size) + " ranks " +
                           (find_all_ ? "all" : "one");
      tests.push_back(t);
      ops_.push_back(op);
    }
    data_.assign(static_cast<size_t>(size_), 'm');
    buf_.assign(static_cast<size_t>(size_), 0);
    return tests;
  }

  void describe_test(pio::TestContext &test) override {
    const pio::ModuleContext &ctx = *test.module;
    rank_ = test.rank;
    size_ranks_ = test.size;
    comm_ = test.comm;
    const Op op = ops_.at(static_cast<size_t>(test.test_index));
    if (!top_made_) {
      // Every rank of the block may own items, at most Items each, of at most FileSize bytes.
      made_top_ = make_test_dir(ctx, g_.top, g_.rule(ctx.size, size_));
      top_made_ = true;
    }
    if (!tree_made_) {
      std::string error;
      if (g_.layout == Layout::Easy || rank_ == 0)
        error = make_dirs(g_.directories(rank_));
      tree_made_ = true; // what exists of it is removed in cleanup_module
      pio::metadata::raise_agreed(comm_, error);
    }
    // Every repetition of create starts from an empty tree and every remove from a full one.
    if (op == Op::Create && count_ > 0)
      untimed_all(Op::Remove);
    else if (op == Op::Remove && count_ == 0)
      untimed_all(Op::Create);
  }

  std::int64_t work_unit(pio::UnitContext &unit) override {
    const Op op = ops_.at(static_cast<size_t>(unit.test->test_index));
    switch (op) {
    case Op::Create: {
      ItemPaths paths(g_, rank_);
      attempted_ = g_.items;
      const StonewallOutcome o = run_stonewalled(comm_, g_.items, stonewall_s_,
                                                 [&](std::int64_t i) { create(paths.path(i)); });
      count_ = o.any_error ? std::max(count_, o.max_at_stop) : o.max_at_stop;
      if (!o.error.empty())
        throw pio::Error(o.error, "see the message");
      if (o.any_error)
        throw pio::Error("another rank failed in create", "see that rank's message");
      if (rank_ == 0 && stonewall_s_ > 0)
        stonewalls_.push_back({unit.test->spec().label, unit.test->rep, o});
      return count_;
    }
    case Op::Stat:
    case Op::Read: {
      ItemPaths paths(g_, shifted(op));
      for (std::int64_t i = 0; i < count_; ++i)
        op == Op::Stat ? stat_item(paths.path(i), size_) : read(paths.path(i));
      return count_;
    }
    case Op::Remove: {
      ItemPaths paths(g_, rank_);
      for (std::int64_t i = 0; i < count_; ++i)
        mpiio_ ? remove_item_mpiio(paths.path(i)) : remove_item(paths.path(i));
      const std::int64_t removed = count_;
      count_ = 0;
      return removed;
    }
    case Op::Find: {
      const FindCount c =
          find_walk(g_.top, rule_, find_all_ ? rank_ : 0, find_all_ ? size_ranks_ : 1);
      if (!find_all_ && rank_ != 0)
        return 0;
      found_ = c.matched;
      return c.scanned;
    }
    }
    return 0;
  }

  void cleanup_module(const pio::ModuleContext &ctx) override {
    if (!top_made_ || ctx.validate_only)
      return;
    std::string error;
    if (!keep_) {
      // Every item this rank may have made, whatever failed before: unlink what exists.
      ItemPaths paths(g_, ctx.rank);
      for (std::int64_t i = 0; i < attempted_; ++i)
        if (!remove_if_present(paths.path(i)) && error.empty())
          error = std::string("cannot remove ") + paths.path(i);
      MPI_Barrier(ctx.comm);
      if (tree_made_ && (g_.layout == Layout::Easy || ctx.rank == 0)) {
        const auto left = remove_dirs(g_.directories(ctx.rank));
        if (!left.empty() && error.empty())
          error = "could not remove " + left.front() +
                  ": it holds entries this run did not create (fix: remove them by hand)";
      }
    }
    MPI_Barrier(ctx.comm);
    pio::metadata::raise_agreed(ctx.comm, error);
  }

  std::optional<pio::Figure> figure(const pio::ModuleResult &) override {
    if (stonewalls_.empty())
      return std::nullopt;
    pio::Figure f;
    f.name = "stonewall";
    pio::FigureTable t;
    t.name = "stonewalled phases (IO500: every rank completes the largest count, wear-out)";
    t.columns = {"test",        "rep",        "items/rank at stop min", "max", "all ranks at stop",
                 "stonewall s", "wear-out s", "rate at stonewall ops/s"};
    for (const auto &r : stonewalls_)
      t.rows.push_back({r.test, static_cast<std::int64_t>(r.rep), r.o.min_at_stop, r.o.max_at_stop,
                        r.o.sum_at_stop, r.o.max_stonewall_s, r.o.max_wear_out_s,
                        r.o.max_stonewall_s > 0
                            ? static_cast<double>(r.o.sum_at_stop) / r.o.max_stonewall_s
                            : 0.0});
    f.values.push_back({"stonewall", stonewall_s_, "s"});
    f.tables.push_back(t);
    return f;
  }

private:
  /// One item's create / read in the block's ItemCalls (stat is POSIX's in both: MPI-IO has
  /// none; mdtest's MPIIO backend stats through POSIX too).
  void create(const char *path) {
    mpiio_ ? create_item_mpiio(path, data_.data(), size_) : create_item(path, data_.data(), size_);
  }
  void read(const char *path) {
    mpiio_ ? read_item_mpiio(path, buf_.data(), size_) : read_item(path, buf_.data(), size_);
  }

  /// The rank whose items this rank works on: mdtest -N, so that a client's cache of what it
  /// created itself does not answer the stat or read (only with more than one rank).
  int shifted(Op op) const {
    if ((op != Op::Stat && op != Op::Read) || size_ranks_ < 2)
      return rank_;
    return static_cast<int>((rank_ + shift_) % size_ranks_);
  }

  /// Creates or removes every item untimed (between repetitions). Collective.
  void untimed_all(Op op) {
    std::string error;
    try {
      ItemPaths paths(g_, rank_);
      if (op == Op::Create) {
        attempted_ = g_.items;
        for (std::int64_t i = 0; i < g_.items; ++i)
          create(paths.path(i));
        count_ = g_.items;
      } else {
        for (std::int64_t i = 0; i < count_; ++i)
          remove_item(paths.path(i));
        count_ = 0;
      }
    } catch (const pio::Error &e) {
      error = std::string(e.what()) + " (fix: " + e.hint() + ")";
    }
    pio::metadata::raise_agreed(comm_, error);
  }

  Geometry g_;
  std::int64_t size_ = 0, shift_ = 1;
  double stonewall_s_ = 0;
  bool keep_ = false, find_all_ = true, mpiio_ = false;
  FindRule rule_;
  std::vector<Op> ops_;
  std::vector<char> data_, buf_;
  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0, size_ranks_ = 1;
  bool top_made_ = false, made_top_ = false, tree_made_ = false;
  std::int64_t count_ = 0;     ///< items each rank has now (the same on every rank)
  std::int64_t attempted_ = 0; ///< items this rank may have created (cleanup's range)
  std::int64_t found_ = 0;
  std::vector<StonewallRow> stonewalls_;
};

pio::ModuleInfo info() {
  using T = pio::DirectiveType;
  pio::ModuleInfo m("metadata", pio::make_module<MetadataModule>);
  m.title = "Metadata";
  m.summary = "mdtest-style create / stat / read / find / remove of many files, in ops/s";
  m.reference = "mdtest (IOR 3.3 distribution); IO500 mdtest-easy / mdtest-hard / find";
  m.directives = {
      pio::DirectiveSpec{"Mode",
                         T::Text,
                         "easy",
                         "easy: a directory tree per rank (mdtest -u); hard: one shared tree",
                         {"easy", "hard"}},
      pio::DirectiveSpec{"Items", T::Integer, "1000", "files per rank (mdtest -n)"}.at_least(1),
      pio::DirectiveSpec{"Depth", T::Integer, "0", "tree depth below the base (mdtest -z)"}.between(
          0, 20),
      pio::DirectiveSpec{"Branching", T::Integer, "1", "subdirectories per directory (mdtest -b)"}
          .between(1, 1000000),
      pio::DirectiveSpec{"FileSize", T::Size, "0",
                         "bytes written at create and read back (mdtest -w / -e; IO500 hard: 3901)"}
          .between(0, 1 << 30),
      pio::DirectiveSpec{"Phases",
                         T::Texts,
                         "create stat read remove",
                         "the phases in order; create first",
                         {"create", "stat", "read", "find", "remove"}},
      pio::DirectiveSpec{
          "RankShift", T::Integer, "1",
          "stat and read work on the items of rank (r + shift) mod ranks (mdtest -N)"}
          .at_least(0),
      pio::DirectiveSpec{"StonewallTime", T::Real, "0",
                         "seconds: create stops on rank 0's decision, then every rank completes "
                         "the largest count (IO500 wear-out); 0 = all Items"}
          .at_least(0),
      pio::DirectiveSpec{"FindName", T::Text, "*", "find: file names matching this glob"},
      pio::DirectiveSpec{"FindSize", T::Integer, "-1", "find: files of this size (-1 = any)"}
          .at_least(-1),
      pio::DirectiveSpec{"FindRanks",
                         T::Text,
                         "all",
                         "find: all ranks share the walk, or one (rank 0) walks it",
                         {"all", "one"}},
      pio::DirectiveSpec{"ItemCalls",
                         T::Text,
                         "posix",
                         "how create / read / remove open, move and close an item: posix "
                         "(open, write/read, close, unlink) or mpiio (MPI_File_open on "
                         "MPI_COMM_SELF, write_at/read_at, MPI_File_close, MPI_File_delete); "
                         "stat is POSIX's in both",
                         {"posix", "mpiio"}},
      pio::DirectiveSpec{"KeepTree", T::Flag, "off",
                         "leave the items and directories after the block (they are then yours)"}};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
