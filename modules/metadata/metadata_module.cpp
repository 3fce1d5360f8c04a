// metadata: mdtest's phases (mdtest in the IOR 3.3 distribution; IO500's mdtest-easy and
// mdtest-hard) as pio-bench tests whose figure of merit is operations per second: create,
// stat, read, find and remove of Items files per rank in a tree per rank (easy), one shared
// tree (hard), or both side by side under one directory (both: IO500's order, find over both
// trees). One work unit is a whole phase, timed between the harness's barriers, so the
// aggregate rate is the items of all ranks over the slowest rank's phase, as mdtest reports it.
// Every item, directory and flush goes through the block's backend (Interface, mdtest's -a), as
// its namespace calls (Capability::Metadata).
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "directories.hpp"
#include "find_shared.hpp"
#include "find_walk.hpp"
#include "inherited_tree.hpp"
#include "item_content.hpp"
#include "item_ops.hpp"
#include "pio/pio.hpp"
#include "stonewall.hpp"
#include "tree.hpp"
#include "writeback.hpp"

namespace {

using namespace pio::metadata;

enum class Op { Create, Stat, Read, Find, Remove };
const char *const kOpNames[] = {"create", "stat", "read", "find", "remove"};

Op op_from(const std::string &name) {
  for (int k = 0; k < 5; ++k)
    if (name == kOpNames[k])
      return static_cast<Op>(k);
  throw pio::DirectiveError("Phases", "unknown phase " + name,
                            "use create, stat, read, find or remove");
}

/// A phase and the tree it works on (find: every tree under the test directory).
struct Step {
  Op op;
  Layout tree;
};

/// One tree's geometry, item size and what exists of it (the same on every rank).
struct Tree {
  Geometry g;
  std::int64_t size = 0;
  bool in_mode = false;       ///< the block's Mode allows this tree (its rule is claimed)
  bool used = false;          ///< a phase of the block names this tree
  bool creates_first = false; ///< the first phase naming it is a create
  bool inherited = false;     ///< FilesFrom: an earlier block of the chain made its directories
  bool made = false;          ///< this block made (or began to make) its directories
  std::int64_t count = 0;     ///< items each rank has now
  std::int64_t attempted = 0; ///< items this rank may have created (cleanup's range)
};

/// The tree and phase a Phases word names: "create" (the block's one tree) or "easy-create" /
/// "hard-create" (Mode both).
Step step_from(const std::string &word, const std::string &mode) {
  const auto dash = word.find('-');
  const std::string tree = dash == std::string::npos ? "" : word.substr(0, dash);
  const Op op = op_from(dash == std::string::npos ? word : word.substr(dash + 1));
  if (mode == "both" && tree.empty() && op != Op::Find)
    throw pio::DirectiveError("Phases", "Phases: " + word + " does not say which tree (Mode both)",
                              "write easy-" + word + " or hard-" + word);
  if (mode != "both" && !tree.empty() && tree != mode)
    throw pio::DirectiveError(
        "Phases", "Phases: " + word + " names the " + tree + " tree, but Mode is " + mode,
        "write " + word.substr(dash + 1) + ", or use Mode both");
  const std::string t = tree.empty() ? mode : tree;
  return {op, t == "hard" ? Layout::Hard : Layout::Easy};
}

/// Every Phases word: the phases alone and, for Mode both, prefixed by their tree.
std::vector<std::string> phase_words() {
  std::vector<std::string> words(kOpNames, kOpNames + 5);
  for (const char *tree : {"easy-", "hard-"})
    for (const char *op : kOpNames)
      if (std::string(op) != "find")
        words.push_back(tree + std::string(op));
  return words;
}

/// One untimed write-back before a phase, for the figure (rank 0).
struct WritebackRow {
  std::string test;
  int rep = 0;
  double seconds = 0; ///< the slowest rank's syncfs and the barrier after it
};

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
    ctx.require("metadata (mdtest's create, stat, read, find and remove)",
                {pio::io::Capability::Metadata});
    backend_ = ctx.backend;
    ctx_ = &ctx;
    top_ = ctx.test_file;
    const std::string mode = s.text("Mode");
    for (const Layout l : {Layout::Easy, Layout::Hard}) {
      Tree &t = trees_[static_cast<int>(l)];
      t.g.top = top_;
      t.g.layout = l;
      t.g.items = s.integer("Items");
      t.g.depth = static_cast<int>(s.integer("Depth"));
      t.g.branching = static_cast<int>(s.integer("Branching"));
      t.size = s.size("FileSize");
      t.in_mode = mode == "both" || mode == layout_name(l);
      if (mode == "both" && l == Layout::Hard) {
        if (s.integer("HardItems") > 0)
          t.g.items = s.integer("HardItems");
        if (s.integer("HardFileSize") >= 0)
          t.size = s.integer("HardFileSize");
      }
    }
    if (trees_[0].g.nodes() > 1000000)
      throw pio::Error("a tree of depth " + std::to_string(trees_[0].g.depth) + " and branching " +
                           std::to_string(trees_[0].g.branching) + " has " +
                           std::to_string(trees_[0].g.nodes()) + " directories",
                       "use at most 1000000 directories per tree (lower Depth or Branching)");
    shift_ = s.integer("RankShift");
    stonewall_s_ = s.real("StonewallTime");
    keep_ = s.flag("KeepTree");
    made_earlier_ = ctx.shared.made_earlier;
    used_later_ = ctx.shared.used_later;
    writeback_ = s.flag("Writeback");
    rule_.name_glob = s.text("FindName");
    rule_.size = s.integer("FindSize");
    rule_.progress = ctx.progress; // a long walk stays alive for StepTimeout
    find_all_ = s.text("FindRanks") == "all";
    verify_ = ctx.verify; // the block's Verify: the read phase's check (docs/metadata.md)
    create_sync_ = s.flag("CreateSync");
    std::vector<pio::TestSpec> tests;
    bool any_created = false;
    for (const auto &word : s.texts("Phases")) {
      const Step st = step_from(word, mode);
      Tree &t = tree(st.tree);
      if (st.op != Op::Find && !t.used)
        t.creates_first = st.op == Op::Create;
      // A chain's later block (FilesFrom) works on the trees an earlier block created.
      if (!made_earlier_ && st.op != Op::Create && (st.op == Op::Find ? !any_created : !t.used))
        throw pio::DirectiveError(
            "Phases",
            "Phases: " + word + " comes before " +
                (st.op == Op::Find ? std::string("any create")
                                   : std::string(layout_name(st.tree)) + " create"),
            "list each tree's create first, e.g. Phases create stat read remove, or take the "
            "tree from an earlier block with FilesFrom");
      any_created = any_created || st.op == Op::Create;
      t.used = t.used || st.op != Op::Find;
      const bool find = st.op == Op::Find;
      const std::string tree_name = find && mode == "both" ? "both" : layout_name(st.tree);
      pio::TestSpec spec;
      spec.label = find && mode == "both" ? "find" : tree_name + " " + kOpNames[int(st.op)];
      spec.buffer_size = t.size;
      spec.file = pio::FileUse::None;
      spec.merit = pio::Merit::Operations;
      spec.params = {{"phase", kOpNames[static_cast<int>(st.op)]},
                     {"mode", tree_name},
                     {"items_per_rank", std::to_string(t.g.items)},
                     {"depth", std::to_string(t.g.depth)},
                     {"branching", std::to_string(t.g.branching)},
                     {"file_size", std::to_string(t.size)},
                     {"rank_shift", std::to_string(shift_)},
                     {"stonewall_s", std::to_string(stonewall_s_)},
                     {"item_calls", ctx.interface}, // the block's Interface, as compare keys had it
                     {"writeback", writeback_ && st.op != Op::Create ? "on" : "off"}};
      if (st.op == Op::Create)
        spec.params["create_sync"] = create_sync_ ? "on" : "off";
      if (find)
        spec.params["find"] = rule_.name_glob + " size " + std::to_string(rule_.size) + " ranks " +
                              (find_all_ ? "all" : "one");
      tests.push_back(spec);
      steps_.push_back(st);
    }
    buf_.assign(static_cast<size_t>(std::max(trees_[0].size, trees_[1].size)), 0);
    return tests;
  }

  void describe_test(pio::TestContext &test) override {
    const pio::ModuleContext &ctx = *test.module;
    rank_ = test.rank;
    size_ranks_ = test.size;
    comm_ = test.comm;
    const Step st = steps_.at(static_cast<size_t>(test.test_index));
    if (writes_.empty()) // the items' bytes, made untimed as mdtest makes its buffer
      for (const Tree &t : trees_) {
        writes_.emplace_back(rank_, t.size);
        reads_.emplace_back(shifted(Op::Read), t.size);
      }
    if (!top_made_) {
      // Every rank of the block may own items in each tree of its Mode, at most its Items each,
      // of at most its FileSize bytes: the rules the harness keeps for the cleanup after a crash.
      // Every block of a chain claims with the same rules, whichever trees it uses.
      pio::TreeRules rules;
      for (const Tree &t : trees_)
        if (t.in_mode)
          rules.push_back(t.g.rule(ctx.size, t.size));
      made_top_ = make_test_dir(ctx, top_, rules, made_earlier_);
      top_made_ = true;
    }
    if (!tree_made_) {
      tree_made_ = true;
      if (made_earlier_)
        inherit_trees();
      std::string error;
      for (Tree &t : trees_)
        if (t.used && !t.inherited) {
          t.made = true; // what exists of it is removed in cleanup_module
          if (error.empty() && (t.g.layout == Layout::Easy || rank_ == 0))
            error = make_dirs(*backend_, t.g.directories(rank_));
        }
      pio::metadata::raise_agreed(comm_, error, ctx_->progress);
    }
    // Every repetition of create starts from an empty tree and every remove from a full one.
    if (st.op == Op::Create && tree(st.tree).count > 0)
      untimed_all(Op::Remove, tree(st.tree));
    else if (st.op == Op::Remove && tree(st.tree).count == 0)
      untimed_all(Op::Create, tree(st.tree));
  }

  // Last before the timed unit, after describe_test's untimed re-create of a remove repetition.
  void before_work_unit(pio::UnitContext &unit) override {
    if (!writeback_ || steps_.at(static_cast<size_t>(unit.test->test_index)).op == Op::Create)
      return;
    const double seconds = write_back(comm_, *backend_, top_);
    if (rank_ == 0)
      writebacks_.push_back({unit.test->spec().label, unit.test->rep, seconds});
  }

  std::int64_t work_unit(pio::UnitContext &unit) override {
    const Step st = steps_.at(static_cast<size_t>(unit.test->test_index));
    Tree &t = tree(st.tree);
    switch (st.op) {
    case Op::Create: {
      ItemPaths paths(t.g, rank_);
      t.attempted = t.g.items;
      const StonewallOutcome o = run_stonewalled(
          comm_, t.g.items, stonewall_s_,
          [&](std::int64_t i) {
            create(paths.path(i), written(st.tree).bytes(i), t.size);
            ctx_->beat(); // a phase longer than StepTimeout is progress, not a hang
          },
          ctx_->progress);
      if (create_sync_ && !o.any_error) // mdtest -Y: inside the timed phase
        backend_->sync(nullptr);
      t.count = o.any_error ? std::max(t.count, o.max_at_stop) : o.max_at_stop;
      if (!o.error.empty())
        throw pio::Error(o.error, "see the message");
      if (o.any_error)
        throw pio::Error("another rank failed in create", "see that rank's message");
      if (rank_ == 0 && stonewall_s_ > 0)
        stonewalls_.push_back({unit.test->spec().label, unit.test->rep, o});
      return t.count;
    }
    case Op::Stat: {
      ItemPaths paths(t.g, shifted(st.op));
      for (std::int64_t i = 0; i < t.count; ++i) {
        stat_item(*backend_, paths.path(i), t.size);
        ctx_->beat();
      }
      return t.count;
    }
    case Op::Read: // Verify timed: mdtest -X, every byte checked inside the timed phase
      read_items(st.tree, verify_ == pio::VerifyMode::Timed);
      return t.count;
    case Op::Remove: {
      ItemPaths paths(t.g, rank_);
      for (std::int64_t i = 0; i < t.count; ++i) {
        remove_item(*backend_, paths.path(i));
        ctx_->beat();
      }
      const std::int64_t removed = t.count;
      t.count = 0;
      return removed;
    }
    case Op::Find: {
      // All ranks: each directory read by one of them; one: rank 0 walks alone.
      const FindCount c = find_all_    ? find_walk_shared(*backend_, top_, rule_, comm_)
                          : rank_ == 0 ? find_walk(*backend_, top_, rule_)
                                       : FindCount{};
      const bool counts = find_all_ || rank_ == 0;
      // The totals of the walk for the figure (IO500's pfind reduces its counts the same way).
      std::int64_t mine[2] = {counts ? c.scanned : 0, counts ? c.matched : 0}, all[2] = {0, 0};
      MPI_Reduce(mine, all, 2, MPI_INT64_T, MPI_SUM, 0, comm_);
      if (rank_ == 0)
        finds_.push_back({unit.test->spec().label, unit.test->rep, all[0], all[1]});
      return mine[0];
    }
    }
    return 0;
  }

  // Verify on: the read phase's check, untimed: every item read again and every byte compared.
  void after_work_unit(pio::UnitContext &unit) override {
    const Step st = steps_.at(static_cast<size_t>(unit.test->test_index));
    if (st.op == Op::Read && verify_ == pio::VerifyMode::Untimed)
      read_items(st.tree, true);
  }

  void cleanup_module(const pio::ModuleContext &ctx) override {
    if (!top_made_ || ctx.validate_only)
      return;
    std::string error;
    // A later block of the chain uses the items: they stay; the chain's last block removes them.
    if (!keep_ && !used_later_) {
      // Every item this rank may have made, whatever failed before: unlink what exists. The
      // chain's last block sweeps every tree of the chain that exists, all Items (an earlier
      // block's create may have stopped anywhere).
      bool sweep[2] = {false, false};
      for (Tree &t : trees_) {
        sweep[static_cast<int>(t.g.layout)] =
            made_earlier_ && t.in_mode && tree_exists_for(*ctx.backend, t.g, ctx.rank);
        ItemPaths paths(t.g, ctx.rank);
        const std::int64_t range = sweep[static_cast<int>(t.g.layout)] ? t.g.items : t.attempted;
        for (std::int64_t i = 0; i < range; ++i) {
          if (!remove_if_present(*ctx.backend, paths.path(i)) && error.empty())
            error = std::string("cannot remove ") + paths.path(i);
          ctx.beat();
        }
      }
      barrier_counting(ctx.comm, ctx.progress); // the other ranks may still be removing items
      for (const Tree &t : trees_)
        if ((t.made || sweep[static_cast<int>(t.g.layout)]) &&
            (t.g.layout == Layout::Easy || ctx.rank == 0)) {
          const auto left = remove_dirs(*ctx.backend, t.g.directories(ctx.rank));
          if (!left.empty() && error.empty())
            error = "could not remove " + left.front() +
                    ": it holds entries this run did not create (fix: remove them by hand)";
        }
    }
    barrier_counting(ctx.comm, ctx.progress);
    pio::metadata::raise_agreed(ctx.comm, error, ctx.progress);
  }

  std::optional<pio::Figure> figure(const pio::ModuleResult &) override {
    if (stonewalls_.empty() && finds_.empty() && writebacks_.empty())
      return std::nullopt;
    pio::Figure f;
    f.name = !stonewalls_.empty() ? "stonewall" : !finds_.empty() ? "find" : "writeback";
    if (!stonewalls_.empty()) {
      pio::FigureTable t;
      // StonewallTime is a setting, not a value of the figure: the block's figure of merit stays
      // each phase's rate (the console's summary, CSV and pio-compare take a figure's values).
      std::ostringstream deadline;
      deadline << stonewall_s_;
      t.name = "stonewalled phases, StonewallTime " + deadline.str() +
               " s (IO500: every rank completes the largest count, wear-out)";
      t.columns = {
          "test",        "rep",        "items/rank at stop min", "max", "all ranks at stop",
          "stonewall s", "wear-out s", "rate at stonewall ops/s"};
      for (const auto &r : stonewalls_)
        t.rows.push_back({r.test, static_cast<std::int64_t>(r.rep), r.o.min_at_stop,
                          r.o.max_at_stop, r.o.sum_at_stop, r.o.max_stonewall_s, r.o.max_wear_out_s,
                          r.o.max_stonewall_s > 0
                              ? static_cast<double>(r.o.sum_at_stop) / r.o.max_stonewall_s
                              : 0.0});
      f.tables.push_back(t);
    }
    if (!finds_.empty()) {
      pio::FigureTable t;
      t.name = "find (IO500: entries scanned, files matching " + rule_.name_glob + " size " +
               std::to_string(rule_.size) + ")";
      t.columns = {"test", "rep", "scanned", "matched"};
      for (const auto &r : finds_)
        t.rows.push_back({r.test, static_cast<std::int64_t>(r.rep), r.scanned, r.matched});
      f.tables.push_back(t);
    }
    if (!writebacks_.empty()) {
      pio::FigureTable t;
      t.name = "writeback (untimed: syncfs of the test directory's file system on every rank, "
               "then a barrier, before the phase)";
      t.columns = {"test", "rep", "flush s"};
      for (const auto &r : writebacks_)
        t.rows.push_back({r.test, static_cast<std::int64_t>(r.rep), r.seconds});
      f.tables.push_back(t);
      f.notes.push_back("Writeback on: the files were written back to disk (untimed) before each "
                        "stat / read / find / remove phase, as IO500's other phases leave them");
    }
    return f;
  }

private:
  /// What one find did over all ranks, for the figure (rank 0).
  struct FindRow {
    std::string test;
    int rep = 0;
    std::int64_t scanned = 0, matched = 0;
  };

  Tree &tree(Layout l) { return trees_[static_cast<int>(l)]; }

  /// FilesFrom, untimed before the block's first test: each tree of the Mode whose directories
  /// an earlier block of the chain made is inherited, with the item count every rank has in it
  /// (discovered on disk, the same on every rank). A tree the block uses that does not exist
  /// must be created first. Collective; the errors are the same on every rank.
  void inherit_trees() {
    for (Tree &t : trees_) {
      if (!t.in_mode)
        continue;
      t.inherited = agreed_tree_exists(comm_, *backend_, t.g);
      if (t.inherited && t.used)
        t.count = agreed_item_count(comm_, *backend_, t.g);
      if (t.used && !t.inherited && !t.creates_first)
        throw pio::Error(std::string("the ") + layout_name(t.g.layout) + " tree under " + top_ +
                             " does not exist: no earlier block of the chain (FilesFrom) "
                             "created it, and this block's Phases do not create it first",
                         std::string("create it in an earlier block of the chain, or list ") +
                             layout_name(t.g.layout) + " create first in Phases");
    }
  }

  /// One item's create through the block's backend.
  void create(const char *path, const char *data, std::int64_t size) {
    create_item(*backend_, path, data, size);
  }
  /// The bytes this rank writes into its items of a tree.
  ItemContent &written(Layout l) { return writes_[static_cast<size_t>(l)]; }
  void read(const char *path, std::int64_t size) { read_item(*backend_, path, buf_.data(), size); }
  /// Reads each item of tree l that this rank reads (RankShift applied); with check, compares
  /// every byte with what create wrote into it (ItemContent::check throws at the first wrong one).
  void read_items(Layout l, bool check) {
    const Tree &t = tree(l);
    ItemPaths paths(t.g, shifted(Op::Read));
    ItemContent &content = reads_[static_cast<size_t>(l)];
    for (std::int64_t i = 0; i < t.count; ++i) {
      const char *path = paths.path(i);
      read(path, t.size);
      if (check)
        content.check(path, buf_.data(), i);
      ctx_->beat();
    }
  }

  /// The rank whose items this rank works on: mdtest -N, so that a client's cache of what it
  /// created itself does not answer the stat or read (only with more than one rank).
  int shifted(Op op) const {
    if ((op != Op::Stat && op != Op::Read) || size_ranks_ < 2)
      return rank_;
    return static_cast<int>((rank_ + shift_) % size_ranks_);
  }

  /// Creates or removes every item of a tree untimed (between repetitions). Collective.
  void untimed_all(Op op, Tree &t) {
    std::string error;
    try {
      ItemPaths paths(t.g, rank_);
      if (op == Op::Create) {
        t.attempted = t.g.items;
        for (std::int64_t i = 0; i < t.g.items; ++i) {
          create(paths.path(i), written(t.g.layout).bytes(i), t.size);
          ctx_->beat();
        }
        t.count = t.g.items;
      } else {
        for (std::int64_t i = 0; i < t.count; ++i) {
          remove_item(*backend_, paths.path(i));
          ctx_->beat();
        }
        t.count = 0;
      }
    } catch (const pio::Error &e) {
      error = std::string(e.what()) + " (fix: " + e.hint() + ")";
    }
    pio::metadata::raise_agreed(comm_, error, ctx_->progress);
  }

  const pio::ModuleContext *ctx_ = nullptr; ///< valid from init_module to cleanup_module
  std::string top_;
  Tree trees_[2]; ///< indexed by Layout: easy, hard
  std::int64_t shift_ = 1;
  double stonewall_s_ = 0;
  bool made_earlier_ = false, used_later_ = false; ///< ModuleContext::shared (FilesFrom)
  bool keep_ = false, find_all_ = true, writeback_ = false;
  pio::io::Backend *backend_ = nullptr; ///< the block's backend (ModuleContext::backend)
  bool create_sync_ = false;
  pio::VerifyMode verify_ = pio::VerifyMode::Off;
  FindRule rule_;
  std::vector<Step> steps_;
  std::vector<ItemContent> writes_, reads_; ///< per tree: this rank's items, those it reads
  std::vector<char> buf_;
  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0, size_ranks_ = 1;
  bool top_made_ = false, made_top_ = false, tree_made_ = false;
  std::vector<StonewallRow> stonewalls_;
  std::vector<FindRow> finds_;
  std::vector<WritebackRow> writebacks_;
};

pio::ModuleInfo info() {
  using T = pio::DirectiveType;
  pio::ModuleInfo m("metadata", pio::make_module<MetadataModule>);
  m.title = "Metadata";
  m.summary = "mdtest-style create / stat / read / find / remove of many files, in ops/s";
  m.reference = "mdtest (IOR 3.3 distribution); IO500 mdtest-easy / mdtest-hard / find";
  // mdtest's default API; Interface chooses another backend with metadata operations (mpiio:
  // MPI_File_open on MPI_COMM_SELF, MPI_File_write_at, MPI_File_close, MPI_File_delete).
  m.default_interface = "posix";
  m.directives = {
      pio::DirectiveSpec{"Mode",
                         T::Text,
                         "easy",
                         "easy: a directory tree per rank (mdtest -u); hard: one shared tree; "
                         "both: the two side by side under TestFile (IO500's mdtest-easy and "
                         "mdtest-hard, find over both), Phases naming each tree's phases",
                         {"easy", "hard", "both"}},
      pio::DirectiveSpec{"Items", T::Integer, "1000", "files per rank (mdtest -n)"}.at_least(1),
      pio::DirectiveSpec{"Depth", T::Integer, "0", "tree depth below the base (mdtest -z)"}.between(
          0, 20),
      pio::DirectiveSpec{"Branching", T::Integer, "1", "subdirectories per directory (mdtest -b)"}
          .between(1, 1000000),
      pio::DirectiveSpec{"FileSize", T::Size, "0",
                         "bytes written at create and read back (mdtest -w / -e; IO500 hard: 3901)"}
          .between(0, 1 << 30),
      pio::DirectiveSpec{"Phases", T::Texts, "create stat read remove",
                         "the phases in order, create first; with Mode both each names its tree "
                         "(easy-create, hard-stat, ...; find walks both)",
                         phase_words()},
      pio::DirectiveSpec{"HardItems", T::Integer, "0",
                         "Mode both: files per rank of the hard tree (0 = Items)"}
          .at_least(0),
      pio::DirectiveSpec{"HardFileSize", T::Integer, "-1",
                         "Mode both: bytes per file of the hard tree (-1 = FileSize; IO500: 3901)"}
          .between(-1, 1 << 30),
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
                         "find: all ranks share the walk (each directory read by one rank), or one "
                         "(rank 0) walks it",
                         {"all", "one"}},
      pio::DirectiveSpec{"Writeback", T::Flag, "off",
                         "before each stat / read / find / remove phase, syncfs the test "
                         "directory's file system on every rank, untimed (IO500's other phases "
                         "leave the items written back before them)"},
      pio::DirectiveSpec{"CreateSync", T::Flag, "off",
                         "each rank calls sync(2) at the end of every create, inside the timed "
                         "phase (mdtest -Y, IO500's mdtest-easy-write and mdtest-hard-write)"},
      pio::DirectiveSpec{"KeepTree", T::Flag, "off",
                         "leave the items and directories after the block (they are then yours)"}};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{info()})
