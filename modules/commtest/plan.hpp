#pragma once
/// The COMMTEST experiments as a list of tests (COMMTEST description): volume (2MB, 128KB, 8KB
/// experiments), protocol, variant (basic or reorganised), way (cache invalidated, warm,
/// repeated sends), pairing (0-1, 0-2, 0-2 with 1-3) and number of messages N.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/spec.hpp"
#include "protocols.hpp"

namespace commtest {

/// A fixed volume of REAL*8 values exchanged by each processor.
struct Experiment {
  std::string name;        ///< "2MB", "128KB", "8KB"
  std::int64_t values = 0; ///< 64-bit values exchanged: 262144, 16384, 1024
  /// Bytes each processor sends.
  std::int64_t volume() const { return values * 8; }
};

/// The three experiments of the description.
const std::vector<Experiment> &experiments();

/// The three ways an experiment is conducted.
enum class Way {
  Invalidated, ///< cache swept before timing, each message sent once
  Warm,        ///< cache not swept, each message sent once
  Repeated,    ///< cache not swept, each message sent `repeats` times in an inner loop
};

/// "invalidated", "warm", "repeated".
std::string way_name(Way w);

/// Which ranks swap: one pair, or two pairs at once (contention).
struct Pairing {
  std::string name;                    ///< "0-1", "0-2", "0-2+1-3"
  std::vector<std::vector<int>> pairs; ///< world ranks of each pair
  /// Processes the pairing needs.
  int needs() const;
};

/// Parses "0-1", "0-2", "0-2+1-3" (any pairs "a-b" joined by '+'); throws pio::Error otherwise.
Pairing parse_pairing(const std::string &text);

/// One test: everything that defines it. The module keeps these by test index.
struct TestMeta {
  const Experiment *experiment = nullptr;
  const Protocol *protocol = nullptr;
  bool reorganised = false;
  Way way = Way::Warm;
  Pairing pairing;
  std::int64_t messages = 1; ///< N
  std::int64_t repeats = 1;  ///< sends of each message (Way::Repeated), else 1
  /// Bytes of one message: volume / N.
  std::int64_t message_bytes() const { return experiment->volume() / messages; }
  /// True when two tests belong to the same series (all but N equal).
  bool same_series(const TestMeta &o) const;
};

/// What the directives select.
struct PlanChoice {
  std::vector<std::string> experiments;    ///< "2MB", "128KB", "8KB"
  std::vector<std::int64_t> messages;      ///< N values
  std::vector<const Protocol *> protocols; ///< protocols
  std::vector<std::string> variants;       ///< "basic", "reorganised"
  std::vector<Way> ways;                   ///< ways
  std::vector<Pairing> pairings;           ///< pairings
  std::int64_t repeats = 10;               ///< Way::Repeated inner iterations
};

/// The tests, in the order pairing, experiment, protocol, variant, way, N. The reorganised
/// variant is planned only for protocols with a nonblocking receive; an N that does not divide
/// an experiment's values is skipped for that experiment.
std::vector<TestMeta> plan_tests(const PlanChoice &choice);

/// The harness's view of a test: label, pair groups, communication semantics (one operation =
/// one SWAP of the whole volume; throughput 2 * volume / t_max, the swap bandwidth), params.
pio::TestSpec test_spec(const TestMeta &t, std::int64_t work_units);

} // namespace commtest
