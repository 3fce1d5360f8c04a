// COMMTEST (the COMMTEST description, PSTSWM SWAP experiments): the time to exchange a fixed
// volume of 64-bit values between two processes - 262144 values (the 2MB experiments), 16384
// (128KB) or 1024 (8KB) - split into N messages, for each unordered (ping-ping) and ordered
// (ping-pong) protocol, in the basic SWAP and the reorganised (pre-posted) form, in three ways
// (cache invalidated, warm cache, repeated sends), between ranks 0-1, 0-2, or 0-2 and 1-3 at
// once. One work unit is one SWAP of the whole volume (each message `Repeats` times in the
// repeated way), timed by the harness between barriers; the maximum time over the
// participating processes is reported. figure() computes the description's statistics.
#include <cstring>
#include <memory>
#include <vector>

#include "cache.hpp"
#include "figure.hpp"
#include "pio/pio.hpp"
#include "pio/stamp.hpp"
#include "plan.hpp"
#include "swap.hpp"

namespace {

using commtest::TestMeta;
using commtest::Way;

constexpr std::uint8_t kPoison = 0xA5;

std::vector<Way> parse_ways(const std::vector<std::string> &words) {
  std::vector<Way> out;
  for (Way w : {Way::Invalidated, Way::Warm, Way::Repeated})
    for (const auto &word : words)
      if (word == commtest::way_name(w)) {
        out.push_back(w);
        break;
      }
  return out;
}

std::vector<commtest::Pairing> parse_pairings(const std::vector<std::string> &words, int size) {
  std::vector<commtest::Pairing> out;
  for (const auto &w : words) {
    if (w == "auto") {
      // 0-1 always; with four processes also 0-2 and the contention pairing 0-2 with 1-3.
      out.push_back(commtest::parse_pairing("0-1"));
      if (size >= 4) {
        out.push_back(commtest::parse_pairing("0-2"));
        out.push_back(commtest::parse_pairing("0-2+1-3"));
      }
    } else {
      out.push_back(commtest::parse_pairing(w));
    }
  }
  return out;
}

class Commtest : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &ctx) override {
    const pio::Settings &s = ctx.settings;
    commtest::PlanChoice choice;
    choice.experiments = s.texts("Experiments");
    choice.messages = s.integers("Messages");
    choice.protocols = commtest::select_protocols(s.texts("Protocols"));
    choice.variants = s.texts("Variants");
    choice.ways = parse_ways(s.texts("Ways"));
    choice.pairings = parse_pairings(s.texts("Pairings"), ctx.size);
    choice.repeats = s.integer("Repeats");
    meta_ = commtest::plan_tests(choice);
    if (meta_.empty())
      throw pio::Error("COMMTEST: the directives select no test",
                       "check that Messages divide the experiments' values (1024, 16384, "
                       "262144) and that Variants reorganised has a protocol with MPI_IRECV");
    stats_.n1 = s.integer("N1");
    stats_.n2 = s.integer("N2");
    if (s.has("ModelMessages"))
      stats_.model = s.integers("ModelMessages");
    verify_ = untimed_verify_only(ctx.verify, ctx.module_name);
    world_rank_ = ctx.rank;

    notes_.clear();
    for (const auto &t : meta_)
      if (t.way == Way::Invalidated && !ctx.validate_only) { // no sweep buffer in the pre-flight
        cache_ = commtest::last_level_cache("/sys/devices/system/cpu/cpu0", s.flag("DetectCache"),
                                            s.size("CacheSize"));
        // A sweep over twice the last-level cache evicts the message buffers.
        sweep_ = std::make_unique<commtest::CacheSweep>(2 * cache_.bytes);
        notes_.push_back("cache invalidated by sweeping " + pio::format_size(sweep_->bytes()) +
                         " (twice the last-level cache of " + pio::format_size(cache_.bytes) +
                         ", from " + cache_.source + ")");
        break;
      }

    std::vector<pio::TestSpec> tests;
    for (const TestMeta &t : meta_)
      tests.push_back(commtest::test_spec(t, s.integer("Samples")));
    return tests;
  }

  void describe_test(pio::TestContext &test) override {
    meta_now_ = &meta_.at(static_cast<size_t>(test.test_index));
    const std::int64_t volume = meta_now_->experiment->volume();
    commtest::SwapPlan plan{meta_now_->protocol, meta_now_->reorganised, volume,
                            meta_now_->messages, meta_now_->repeats};
    send_.resize(static_cast<size_t>(volume));
    recv_.resize(static_cast<size_t>(volume));
    swap_ = std::make_unique<commtest::Swap>(plan, test.comm, send_.data(), recv_.data());
    // Who the partner is, in world ranks: the stamps name the sender.
    int partner = -1;
    const int other = 1 - test.rank;
    pio::mpi_check(MPI_Sendrecv(&world_rank_, 1, MPI_INT, other, 1, &partner, 1, MPI_INT, other, 1,
                                test.comm, MPI_STATUS_IGNORE),
                   "MPI_Sendrecv");
    if (volume != pattern_volume_ || partner != partner_) {
      pattern_.resize(static_cast<size_t>(volume));
      expected_.resize(static_cast<size_t>(volume));
      pio::stamp_fill(pattern_.data(), volume, world_rank_, 0);
      pio::stamp_fill(expected_.data(), volume, partner, 0);
      pattern_volume_ = volume;
      partner_ = partner;
    }
  }

  void before_work_unit(pio::UnitContext &) override {
    // "Before timing begins, the L2 cache is invalidated [first way only], the message buffer
    // is initialized, and a barrier is called" (the barrier is the harness's).
    if (meta_now_->way == Way::Invalidated)
      swept_ += sweep_->sweep();
    std::memcpy(send_.data(), pattern_.data(), send_.size());
    if (verify_)
      std::memset(recv_.data(), kPoison, recv_.size());
    swap_->prepare();
  }

  std::int64_t work_unit(pio::UnitContext &) override { return swap_->run(); }

  void after_work_unit(pio::UnitContext &) override {
    if (!verify_ || std::memcmp(recv_.data(), expected_.data(), recv_.size()) == 0)
      return;
    size_t i = 0;
    while (recv_[i] == expected_[i])
      ++i;
    const auto message = static_cast<std::int64_t>(i) / meta_now_->message_bytes();
    throw pio::Error("COMMTEST verify: rank " + std::to_string(world_rank_) +
                         " received a wrong "
                         "byte at offset " +
                         std::to_string(i) + " (message " + std::to_string(message) + " of " +
                         std::to_string(meta_now_->messages) + ", from rank " +
                         std::to_string(partner_) + ")",
                     "the protocol delivered data out of order or not at all");
  }

  void cleanup_test(pio::TestContext &) override { swap_.reset(); }

  void cleanup_module(const pio::ModuleContext &) override {
    sweep_.reset();
    send_ = {};
    recv_ = {};
    pattern_ = {};
    expected_ = {};
    pattern_volume_ = 0;
    partner_ = -1;
  }

  std::optional<pio::Figure> figure(const pio::ModuleResult &results) override {
    return commtest::make_figure(results, meta_, stats_, notes_);
  }

private:
  std::vector<TestMeta> meta_; ///< by test index
  commtest::StatsChoice stats_;
  std::vector<std::string> notes_;
  bool verify_ = false;
  int world_rank_ = 0;
  commtest::CacheSize cache_;
  std::unique_ptr<commtest::CacheSweep> sweep_;
  std::uint64_t swept_ = 0;
  const TestMeta *meta_now_ = nullptr;
  std::unique_ptr<commtest::Swap> swap_;
  std::vector<std::uint8_t> send_, recv_, pattern_, expected_;
  std::int64_t pattern_volume_ = 0;
  int partner_ = -1;
};

pio::ModuleInfo commtest_info() {
  pio::ModuleInfo m("commtest", pio::make_module<Commtest>);
  m.title = "COMMTEST";
  m.family = pio::ModuleFamily::Commtest;
  m.summary = "PSTSWM SWAP experiments: a fixed volume swapped in N messages, unordered and "
              "ordered protocols, latency and bandwidth statistics";
  m.reference = "COMMTEST description (PSTSWM SWAP experiments)";
  m.directives = {
      pio::DirectiveSpec{"Experiments",
                         pio::DirectiveType::Texts,
                         "2MB 128KB 8KB",
                         "volumes swapped: 2MB (262144 REAL*8), 128KB (16384), 8KB (1024)",
                         {"2MB", "128KB", "8KB"}},
      pio::DirectiveSpec{"Messages", pio::DirectiveType::Integers,
                         "1 2 4 8 16 32 64 128 256 512 1024",
                         "N: messages each volume is split into (must divide its values)"}
          .between(1, 262144),
      pio::DirectiveSpec{"Protocols", pio::DirectiveType::Texts, "all",
                         "all, unordered, ordered, or ids 0,0 .. 0,9 and 1,0 .. 1,10",
                         commtest::protocol_choices()},
      pio::DirectiveSpec{"Variants",
                         pio::DirectiveType::Texts,
                         "basic reorganised",
                         "basic SWAP, and/or reorganised (receives pre-posted one ahead)",
                         {"basic", "reorganised"}},
      pio::DirectiveSpec{"Ways",
                         pio::DirectiveType::Texts,
                         "invalidated warm repeated",
                         "cache invalidated before timing, warm cache, repeated sends",
                         {"invalidated", "warm", "repeated"}},
      pio::DirectiveSpec{"Repeats", pio::DirectiveType::Integer, "10",
                         "repeated way: sends of each message (inner loop); time divided by it"}
          .at_least(1),
      pio::DirectiveSpec{"Pairings", pio::DirectiveType::Texts, "auto",
                         "rank pairs: 0-1, 0-2, 0-2+1-3 (both at once); auto = 0-1, and with 4 "
                         "or more processes also 0-2 and 0-2+1-3"},
      pio::DirectiveSpec{"N1", pio::DirectiveType::Integer, "512",
                         "a = (T_N2 - T_N1) / (N2 - N1): N1"}
          .at_least(1),
      pio::DirectiveSpec{"N2", pio::DirectiveType::Integer, "1024",
                         "a = (T_N2 - T_N1) / (N2 - N1): N2"}
          .at_least(1),
      pio::DirectiveSpec{"ModelMessages", pio::DirectiveType::Integers, "",
                         "the N the linear model's error is computed over (default: all)"}
          .at_least(1),
      pio::DirectiveSpec{"DetectCache", pio::DirectiveType::Flag, "on",
                         "read the last-level cache size from /sys/devices/system/cpu/cpu0/cache"},
      pio::DirectiveSpec{"CacheSize", pio::DirectiveType::Size, "32M",
                         "last-level cache size when not detected; the sweep is twice it"}
          .between(1024, 1099511627776.0),
      pio::DirectiveSpec{"Samples", pio::DirectiveType::Integer, "1",
                         "work units (SWAPs) per repetition"}
          .at_least(1)};
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{commtest_info()})
