// b_eff, the effective bandwidth benchmark (Koniges, Rabenseifner et al., "b_eff and b_eff_io",
// §2.1, §3.1, §4 with Table 1). All processes send messages to their neighbours at the same time:
//   - 21 message lengths L: 1 B ... 4 kB doubling, then 4 kB * a^k up to L_max = memory per
//     process / 128 (lengths.hpp);
//   - the six ring patterns on a 1-D cyclic topology of the ranks and random patterns (one ring
//     of all processes in random order), plus the additional patterns reported but not averaged
//     (patterns.hpp): each process sends to its left neighbour and receives from its right one,
//     then the reverse;
//   - three methods: MPI_Sendrecv, MPI_Alltoallv, MPI_Irecv/MPI_Isend/MPI_Waitall, each execution
//     in the next block of buffers walked as b_eff 3.6 walks them (exchange.hpp);
//   - per (pattern, L, method) a loop of looplength executions, looplength 300 for the shortest
//     message, reduced so that a loop takes 2.5 - 5 ms, at least 1 (looplength.hpp); 3 repetitions.
// One harness test is one (L, pattern, method); its work unit is the loop, so the harness's
// per-rank own time (maximum over processes) is the time in
//   b(pat, L, mthd, rep) = L * (messages of the pattern) * looplength / (max time of the loop),
// and figure() computes b_eff from those typed results (beff_figure.hpp, averaging.hpp).
// No file.
#include <algorithm>
#include <limits>
#include <vector>

#include "beff_figure.hpp"
#include "exchange.hpp"
#include "lengths.hpp"
#include "looplength.hpp"
#include "memory.hpp"
#include "patterns.hpp"
#include "pio/pio.hpp"

namespace pio::b_eff {

namespace {

/// b_eff's pre-loop: one untimed execution before the loop, for all but the three largest
/// lengths (b_eff 3.x: PRE_LOOPS for i_msg < 18), so connections are set up before timing.
constexpr int kWarmUpBelow = 18;

/// The most recent loop of one pattern and method: where the next looplength comes from.
struct Previous {
  std::int64_t looplength = 0;
  double time_s = 0; ///< maximum over processes
  std::int64_t length = 0;
};

class Beff : public Module {
public:
  std::vector<TestSpec> init_module(const ModuleContext &ctx) override {
    const Settings &s = ctx.settings;
    verify_ = untimed_verify_only(ctx.verify, ctx.module_name);
    rule_.initial = s.integer("Looplength");
    rule_.max_time_s = s.real("LoopTime") * 1e-3;

    // L_max (§4): memory per process / 128, or as set.
    std::int64_t lmax = s.size("Lmax");
    facts_.memory_per_process = s.size("MemoryPerProcess");
    if (lmax > 0) {
      if (lmax < kFixedMax)
        throw Error("Lmax " + std::to_string(lmax) + " is below 4K",
                    "set Lmax to 0 (memory per process / 128) or to 4K or more");
      facts_.memory_source = "not used: Lmax set to " + format_size(lmax);
    } else if (facts_.memory_per_process > 0) {
      facts_.memory_source = "MemoryPerProcess " + format_size(facts_.memory_per_process);
      lmax = lmax_rule(facts_.memory_per_process);
    } else {
      const MemoryPerProcess m = detect_memory_per_process(ctx.comm);
      facts_.memory_per_process = m.bytes;
      facts_.memory_source = m.source;
      lmax = lmax_rule(m.bytes);
    }
    facts_.lengths = message_lengths(lmax);
    facts_.measured.assign(facts_.lengths.size(), !s.has("Lengths"));
    if (s.has("Lengths"))
      for (std::int64_t i : s.integers("Lengths"))
        facts_.measured.at(static_cast<size_t>(i)) = true;
    largest_ = 1;
    for (size_t l = 0; l < facts_.lengths.size(); ++l)
      if (facts_.measured[l])
        largest_ = std::max(largest_, facts_.lengths[l]);
    // Allocated at the first test, not here: a --check pre-flight must not write 2 x 1.2 GB.
    facts_.walk_bytes = (largest_ + 16) * kWalkMessages;
    facts_.stamps_every_byte = verify_;

    PatternChoice choice;
    const auto kinds = s.texts("Patterns");
    auto chosen = [](const std::vector<std::string> &v, const char *w) {
      return std::find(v.begin(), v.end(), w) != v.end();
    };
    choice.rings = chosen(kinds, "ring");
    choice.random = chosen(kinds, "random");
    choice.extra = chosen(kinds, "extra");
    choice.random_count = static_cast<int>(s.integer("RandomPatterns"));
    choice.seed = static_cast<std::uint64_t>(s.integer("Seed"));
    facts_.seed = choice.seed;
    facts_.processes = ctx.size;
    patterns_ = all_patterns(ctx.size, choice);
    for (const Pattern &p : patterns_)
      facts_.patterns.push_back({p.name, p.family, p.layout, p.messages(), p.participants});

    const auto method_words = s.texts("Methods");
    const char *method_word[] = {"sendrecv", "alltoallv", "nonblocking"};
    for (int m = 0; m < 3; ++m)
      facts_.methods.push_back(method_name(static_cast<Method>(m)));

    std::vector<TestSpec> tests;
    for (size_t l = 0; l < facts_.lengths.size(); ++l) {
      if (!facts_.measured[l])
        continue;
      for (size_t p = 0; p < patterns_.size(); ++p)
        for (int m = 0; m < 3; ++m) {
          if (!chosen(method_words, method_word[m]) ||
              (patterns_[p].sendrecv_only && m != static_cast<int>(Method::Sendrecv)))
            continue;
          tests.push_back(make_test(p, l, m));
          facts_.tests.push_back({static_cast<int>(p), static_cast<int>(l), m});
        }
    }
    facts_.looplengths.assign(tests.size(), {});
    previous_.assign(patterns_.size(), std::vector<Previous>(3));
    return tests;
  }

  void describe_test(TestContext &test) override {
    const TestMeta &m = facts_.tests.at(static_cast<size_t>(test.test_index));
    const Pattern &p = patterns_[static_cast<size_t>(m.pattern)];
    length_ = facts_.lengths[static_cast<size_t>(m.length)];
    method_ = static_cast<Method>(m.method);
    comm_ = test.comm;
    // §4: the looplength from the previous loop of this pattern and method.
    const Previous &prev = previous_[static_cast<size_t>(m.pattern)][static_cast<size_t>(m.method)];
    const double ratio = prev.length > 0 ? static_cast<double>(length_) / prev.length : 1.0;
    looplength_ = next_looplength(prev.looplength, prev.time_s, ratio, rule_);
    auto &loops = facts_.looplengths[static_cast<size_t>(test.test_index)];
    loops.resize(static_cast<size_t>(test.rep) + 1);
    loops[static_cast<size_t>(test.rep)] = looplength_;

    exchange_.reserve(largest_); // once: the walked buffers, written before any timed loop
    // b_eff 3.6 checks the first and last byte of every message inside its loops; Verify
    // checks every byte (and so times that work too).
    exchange_.prepare(test.comm, test.rank, p.steps.at(static_cast<size_t>(test.rank)), length_,
                      verify_ ? Stamp::All : Stamp::Ends);
    wrong_.clear();
    if (m.length < kWarmUpBelow)
      wrong_ = exchange_.run(method_);
  }

  std::int64_t work_unit(UnitContext &) override {
    const double start = MPI_Wtime();
    for (std::int64_t i = 0; i < looplength_; ++i)
      if (std::string bad = exchange_.run(method_); !bad.empty() && wrong_.empty())
        wrong_ = std::move(bad);
    loop_time_ = MPI_Wtime() - start;
    return exchange_.bytes_sent() * looplength_;
  }

  void after_work_unit(UnitContext &unit) override {
    const TestMeta &m = facts_.tests.at(static_cast<size_t>(unit.test->test_index));
    double slowest = 0;
    mpi_check(MPI_Allreduce(&loop_time_, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
    previous_[static_cast<size_t>(m.pattern)][static_cast<size_t>(m.method)] =
        Previous{looplength_, slowest, length_};
    if (!wrong_.empty())
      throw Error("b_eff " + facts_.patterns[static_cast<size_t>(m.pattern)].name + " with " +
                      method_name(method_) + ", L = " + std::to_string(length_) + ": " + wrong_,
                  "the MPI library delivered a wrong message; check the MPI installation");
  }

  std::optional<Figure> figure(const ModuleResult &results) override {
    return make_figure(facts_, results);
  }

private:
  TestSpec make_test(size_t p, size_t l, int m) const {
    const Pattern &pat = patterns_[p];
    const std::int64_t length = facts_.lengths[l];
    TestSpec t;
    t.label = pat.name + " " + method_name(static_cast<Method>(m)) + " " + std::to_string(length);
    t.buffer_size = length;
    t.file = FileUse::None;
    if (pat.participants < facts_.processes)
      t.groups = RankGroups::first(pat.participants);
    t.phases[0].work_units = 1; // one loop of looplength executions
    t.params = {{"pattern", pat.name},
                {"layout", pat.layout},
                {"method", method_name(static_cast<Method>(m))},
                {"length_index", std::to_string(l)},
                {"messages", std::to_string(pat.messages())}};
    return t;
  }

  bool verify_ = false;
  LoopRule rule_;
  FigureFacts facts_;
  std::vector<Pattern> patterns_;
  std::vector<std::vector<Previous>> previous_; ///< [pattern][method]
  Exchange exchange_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  Method method_ = Method::Sendrecv;
  std::int64_t length_ = 0, looplength_ = 1;
  double loop_time_ = 0;
  std::string wrong_;        ///< the first message of this test that arrived wrong
  std::int64_t largest_ = 1; ///< the largest length measured: sizes the walked buffers
};

ModuleInfo beff_info() {
  ModuleInfo m("beff", make_module<Beff>);
  m.title = "b_eff";
  m.family = pio::ModuleFamily::Beff;
  m.summary = "effective bandwidth: rings and random polygons, 3 methods, 21 lengths, logavg";
  m.reference = "b_eff paper (Koniges, Rabenseifner et al.) §2.1, §3.1, §4, Table 1";
  m.output = Output::Figure; // thousands of tests; the figure's tables summarise them
  using T = DirectiveType;
  m.directives = {
      DirectiveSpec{"MemoryPerProcess", T::Size, "0",
                    "memory per process that sets L_max = memory / 128 (0 = physical memory / "
                    "ranks on the node)"},
      DirectiveSpec{"Lmax", T::Size, "0",
                    "the largest message length directly (0 = memory per process / 128, at most "
                    "128M as for 32-bit int)"}
          .between(0, static_cast<double>(kLmaxCap32)),
      DirectiveSpec{"Lengths", T::Integers, "",
                    "indices 0..20 of the 21 lengths to measure (default all; fewer is not a "
                    "valid b_eff)"}
          .between(0, kLengths - 1),
      DirectiveSpec{"Patterns",
                    T::Texts,
                    "ring random extra",
                    "pattern families: ring (6 rings), random, extra (not averaged)",
                    {"ring", "random", "extra"}},
      DirectiveSpec{"Methods",
                    T::Texts,
                    "sendrecv alltoallv nonblocking",
                    "communication methods (b_eff takes the best)",
                    {"sendrecv", "alltoallv", "nonblocking"}},
      DirectiveSpec{"RandomPatterns", T::Integer, "6", "number of random patterns"}.between(1,
                                                                                            1000),
      DirectiveSpec{"Seed", T::Integer, "1", "seed of the random patterns (reported)"}.at_least(0),
      DirectiveSpec{"Looplength", T::Integer, "300",
                    "looplength of the shortest message, and the largest used"}
          .at_least(1),
      DirectiveSpec{"LoopTime", T::Real, "5",
                    "milliseconds a loop may take; the looplength aims at LoopTime/2..LoopTime "
                    "(scales the run time)"}
          .between(1e-3, 1e6),
  };
  return m;
}

} // namespace

} // namespace pio::b_eff

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::b_eff::beff_info()})
