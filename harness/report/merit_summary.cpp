#include "report/merit_summary.hpp"

#include "pio/directive.hpp"
#include "report/flag_text.hpp"

namespace pio::harness {

namespace {
/// A message length as IMB users read it: "0 B", "1K", "4M".
std::string bytes_text(std::int64_t bytes) {
  const std::string s = format_size(bytes);
  return s.back() >= '0' && s.back() <= '9' ? s + " B" : s;
}

/// An IMB block: t_avg at its shortest message, and IMB's Mbytes/sec at its longest when the
/// kernel moves data (Barrier does not).
void add_imb(std::vector<MeritRow> &out, const ModuleResult &block) {
  const TestResult *shortest = nullptr, *longest = nullptr;
  for (const auto &t : block.tests) {
    if (t.error || !t.comm || !t.summary.op)
      continue;
    if (!shortest || t.comm->message_bytes < shortest->comm->message_bytes)
      shortest = &t;
    if (!longest || t.comm->message_bytes >= longest->comm->message_bytes)
      longest = &t;
  }
  if (!shortest)
    return;
  out.push_back({block.label, "t_avg at " + bytes_text(shortest->comm->message_bytes),
                 shortest->summary.op->t_avg_us, "us", flag_names(shortest->flags, ",")});
  if (longest->summary.op->mbytes_per_s > 0)
    out.push_back({block.label, "Mbytes/sec at " + bytes_text(longest->comm->message_bytes),
                   longest->summary.op->mbytes_per_s, "MiB/s", flag_names(longest->flags, ",")});
}
} // namespace

std::vector<MeritRow> merit_summary(const RunResult &run) {
  std::vector<MeritRow> out;
  for (const auto &block : run.modules) {
    if (block.figure && !block.figure->values.empty()) {
      const FigureValue &v = block.figure->values.front();
      std::set<Flag> flags; // of every test the figure is made of
      for (const auto &t : block.tests)
        for (const auto &f : t.flags)
          flags.insert(f.flag);
      out.push_back({block.label, v.name, v.value, v.unit, flag_names(flags, ",")});
    } else if (block.output == Output::Imb) {
      add_imb(out, block);
    } else {
      for (const auto &t : block.tests)
        if (!t.error && !t.reps.empty())
          out.push_back({block.label, t.label + " median", rate_stats(t).median,
                         merit_unit(t.merit), flag_names(t.flags, ",")});
    }
  }
  return out;
}

FigureTable merit_table(const std::vector<MeritRow> &rows) {
  FigureTable t{"summary: the figure of merit of every block (all values: results file, CSV)",
                {"block", "figure of merit", "value", "unit", "flags"},
                {}};
  for (const auto &r : rows)
    t.rows.push_back({r.block, r.what, r.value, r.unit, r.flags.empty() ? "-" : r.flags});
  return t;
}

} // namespace pio::harness
