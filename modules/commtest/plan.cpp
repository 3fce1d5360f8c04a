// The COMMTEST experiments (COMMTEST description): "we measure the time required to exchange
// 262144 64-bit floating point numbers between two neighboring processors ... the 2MB
// experiments ... we also measure the time to swap 1024 and 16384 64-bit values ... the 8KB and
// 128KB experiments", each split into N messages of volume / N bytes.
#include "plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "pio/error.hpp"

namespace commtest {

const std::vector<Experiment> &experiments() {
  static const std::vector<Experiment> all = {{"2MB", 262144}, {"128KB", 16384}, {"8KB", 1024}};
  return all;
}

std::string way_name(Way w) {
  switch (w) {
  case Way::Invalidated:
    return "invalidated";
  case Way::Warm:
    return "warm";
  case Way::Repeated:
    return "repeated";
  }
  return "?";
}

int Pairing::needs() const {
  int n = 0;
  for (const auto &p : pairs)
    for (int r : p)
      n = std::max(n, r + 1);
  return n;
}

Pairing parse_pairing(const std::string &text) {
  Pairing out;
  out.name = text;
  size_t start = 0;
  const std::string hint = "write pairs of ranks a-b joined by '+', e.g. 0-1, 0-2 or 0-2+1-3";
  while (start <= text.size()) {
    const size_t plus = text.find('+', start);
    const std::string pair = text.substr(start, plus == std::string::npos ? plus : plus - start);
    const size_t dash = pair.find('-');
    try {
      if (dash == std::string::npos)
        throw std::invalid_argument(pair);
      size_t p1 = 0, p2 = 0;
      const int a = std::stoi(pair.substr(0, dash), &p1);
      const int b = std::stoi(pair.substr(dash + 1), &p2);
      if (p1 != dash || p2 != pair.size() - dash - 1 || a < 0 || b < 0 || a == b)
        throw std::invalid_argument(pair);
      out.pairs.push_back({a, b});
    } catch (const std::exception &) {
      throw pio::Error("COMMTEST pairing '" + text + "' is not a list of pairs", hint);
    }
    if (plus == std::string::npos)
      break;
    start = plus + 1;
  }
  return out;
}

bool TestMeta::same_series(const TestMeta &o) const {
  return experiment == o.experiment && protocol == o.protocol && reorganised == o.reorganised &&
         way == o.way && pairing.name == o.pairing.name;
}

std::vector<TestMeta> plan_tests(const PlanChoice &choice) {
  std::vector<TestMeta> out;
  for (const Pairing &pairing : choice.pairings)
    for (const std::string &ename : choice.experiments)
      for (const Experiment &e : experiments()) {
        if (e.name != ename)
          continue;
        for (const Protocol *p : choice.protocols)
          for (const std::string &variant : choice.variants) {
            const bool reorganised = variant == "reorganised";
            if (reorganised && !p->reorganisable())
              continue;
            for (Way way : choice.ways)
              for (std::int64_t n : choice.messages) {
                if (n < 1 || n > e.values || e.values % n != 0)
                  continue;
                TestMeta t;
                t.experiment = &e;
                t.protocol = p;
                t.reorganised = reorganised;
                t.way = way;
                t.pairing = pairing;
                t.messages = n;
                t.repeats = way == Way::Repeated ? choice.repeats : 1;
                out.push_back(t);
              }
          }
      }
  return out;
}

pio::TestSpec test_spec(const TestMeta &t, std::int64_t work_units) {
  pio::TestSpec s;
  const std::string variant = t.reorganised ? "reorganised" : "basic";
  s.label = t.experiment->name + " (" + t.protocol->id() + ") " + variant + " " + way_name(t.way) +
            " " + t.pairing.name + " N=" + std::to_string(t.messages);
  s.buffer_size = t.message_bytes();
  s.file = pio::FileUse::None;
  s.groups = pio::RankGroups::sets(t.pairing.pairs);
  s.phases[0].work_units = work_units;
  // One operation is one SWAP of the whole volume in N messages; the repeated way runs each
  // message `repeats` times per unit and the harness divides by them. The maximum time over
  // the pair's processes (t_max) is what the description reports; 2 * volume / t_max is the
  // swap bandwidth.
  pio::CommSemantics comm;
  comm.ops_per_unit = t.repeats;
  comm.message_bytes = t.experiment->volume();
  comm.bytes_scale = 2.0;
  comm.report = pio::Report::Both;
  s.comm = comm;
  s.params = {{"benchmark", "SWAP"},
              {"experiment", t.experiment->name},
              {"protocol", t.protocol->id()},
              {"protocol_name", t.protocol->name},
              {"variant", variant},
              {"way", way_name(t.way)},
              {"pairing", t.pairing.name},
              {"messages", std::to_string(t.messages)},
              {"message_bytes", std::to_string(t.message_bytes())},
              {"repeats", std::to_string(t.repeats)}};
  return s;
}

} // namespace commtest
