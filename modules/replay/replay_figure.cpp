#include "replay_figure.hpp"

#include <cmath>
#include <limits>

#include "pio/directive.hpp"

namespace pio::replay {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A number cell, or a text cell saying why there is none.
Cell number_or(double v, const char *why) {
  if (std::isnan(v))
    return std::string(why);
  return v;
}

std::string size_range(int k) {
  return format_size(std::int64_t(1) << k) + " .. " + format_size(std::int64_t(1) << (k + 1));
}

} // namespace

Figure make_figure(const ReplayFacts &f, const TraceSummary &s, const ModuleResult &results) {
  Figure fig;
  fig.name = "replay";
  const DirectionSummary &reads = s.of(OpKind::Read), &writes = s.of(OpKind::Write);
  // The recorded bandwidth of what was replayed: bytes over the union of the traced intervals.
  double recorded = kNaN;
  if (f.ops == OpSelection::Reads)
    recorded = reads.busy_bandwidth_MiBps();
  else if (f.ops == OpSelection::Writes)
    recorded = writes.busy_bandwidth_MiBps();
  else if (s.busy_seconds() > 0)
    recorded = static_cast<double>(reads.bytes + writes.bytes) / s.busy_seconds() / 1048576.0;
  double replay = kNaN;
  if (!results.tests.empty() && !results.tests.front().error && !results.tests.front().reps.empty())
    replay = results.tests.front().summary.bandwidth_MiBps.median;
  fig.values.push_back({"replay", replay, "MiB/s"});
  fig.values.push_back({"recorded", recorded, "MiB/s"});
  fig.values.push_back({"replay / recorded", replay / recorded, "x"});

  FigureTable trace{"trace", {"", "value"}, {}, false};
  trace.rows.push_back({std::string("trace"), f.trace + " (" + to_string(f.format) + ")"});
  trace.rows.push_back(
      {std::string("replayed file"),
       f.file + (f.format == TraceFormat::Dxt
                     ? std::string(" (X_") + (f.layer == Layer::Posix ? "POSIX" : "MPIIO") + ")"
                     : std::string())});
  trace.rows.push_back({std::string("files in the trace"), f.files});
  trace.rows.push_back({std::string("ranks"), std::to_string(f.trace_ranks) + " traced on " +
                                                  std::to_string(f.run_ranks) + " (TraceRanks " +
                                                  to_string(f.mapping) + ")"});
  trace.rows.push_back(
      {std::string("replayed"), std::to_string(f.replayed_ops - f.capped_ops) +
                                    " operations (TraceOps " + to_string(f.ops) + ") as " + f.mode +
                                    "s, " + std::to_string(f.units) + " work units per rank"});
  if (f.capped_ops > 0)
    trace.rows.push_back(
        {std::string("left out"),
         std::to_string(f.capped_ops) + " operations past WorkUnits " + std::to_string(f.units)});
  trace.rows.push_back(
      {std::string("operations"),
       (f.spilled ? "sorted on disk in " + spill_directory() + ", more than TraceMemory "
                  : std::string("in memory, within TraceMemory ")) +
           format_size(f.memory)});
  std::string timing = f.timing;
  if (f.timing == "scaled")
    timing += " (recorded gaps x " + std::to_string(f.scale) + ")";
  trace.rows.push_back({std::string("timing"), timing});
  fig.tables.push_back(trace);

  FigureTable summary{"trace summary", {"", "reads", "writes"}, {}, false};
  summary.rows.push_back({std::string("operations"), reads.ops, writes.ops});
  summary.rows.push_back({std::string("bytes"), reads.bytes, writes.bytes});
  summary.rows.push_back({std::string("sequential share"), number_or(reads.sequential_share(), "-"),
                          number_or(writes.sequential_share(), "-")});
  summary.rows.push_back(
      {std::string("first start .. last end [s]"),
       reads.ops ? Cell(std::to_string(reads.first_start) + " .. " + std::to_string(reads.last_end))
                 : Cell(std::string("-")),
       writes.ops
           ? Cell(std::to_string(writes.first_start) + " .. " + std::to_string(writes.last_end))
           : Cell(std::string("-"))});
  summary.rows.push_back(
      {std::string("busy time [s]"), reads.busy.seconds(), writes.busy.seconds()});
  const char *unclocked = "below the trace's clock";
  summary.rows.push_back(
      {std::string("recorded MiB/s (busy)"),
       number_or(reads.ops ? reads.busy_bandwidth_MiBps() : kNaN, reads.ops ? unclocked : "-"),
       number_or(writes.ops ? writes.busy_bandwidth_MiBps() : kNaN, writes.ops ? unclocked : "-")});
  summary.rows.push_back({std::string("recorded MiB/s (span)"),
                          number_or(reads.span_bandwidth_MiBps(), "-"),
                          number_or(writes.span_bandwidth_MiBps(), "-")});
  fig.tables.push_back(summary);

  FigureTable sizes{"operation sizes", {"bytes", "reads", "writes"}, {}, false};
  std::map<int, std::pair<std::int64_t, std::int64_t>> by_class;
  for (const auto &kv : reads.sizes)
    by_class[kv.first].first = kv.second;
  for (const auto &kv : writes.sizes)
    by_class[kv.first].second = kv.second;
  for (const auto &kv : by_class)
    sizes.rows.push_back({size_range(kv.first), kv.second.first, kv.second.second});
  fig.tables.push_back(sizes);

  FigureTable left{"not replayed", {"operation", "count"}, {}, false};
  for (const auto &kv : f.not_replayed)
    left.rows.push_back({kv.first, kv.second});
  if (left.rows.empty())
    left.rows.push_back({std::string("(none)"), std::int64_t(0)});
  fig.tables.push_back(left);

  fig.notes.push_back("the replay makes each traced read or write at its offset and length, in "
                      "each rank's traced order; it does not reproduce the computation between "
                      "them (Timing asap), the program's memory layout, nor library internals "
                      "beyond the calls traced (docs/guides/replay.md)");
  if (std::isnan(recorded))
    fig.notes.push_back("the traced operations are too short for the trace's clock (DXT: 0.1 ms): "
                        "no recorded bandwidth over their busy time, only over their span");
  if (f.layer == Layer::MpiIo)
    fig.notes.push_back("X_MPIIO offsets are MPI-IO's (the start of each call in the file "
                        "view), not the file system's; X_POSIX shows what reached the file");
  if (f.timing != "asap" && !results.tests.empty() &&
      results.tests.front().timing_scope == TimingScope::Unit)
    fig.notes.push_back("Timing " + f.timing +
                        " under TimingScope unit: every unit waits for the "
                        "latest rank's recorded start; TimingScope phase lets each rank keep its "
                        "own times");
  return fig;
}

} // namespace pio::replay
