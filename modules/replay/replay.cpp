// The replay module family (docs/guides/replay.md, issue 44): an application's own I/O, recorded as
// a darshan-dxt-parser text or an strace log, as a pattern of the engine. Each run rank's traced
// operations on one file (TraceFile), of one layer (TraceLayer) and kind (TraceOps), mapped from
// the trace's ranks (TraceRanks), are its work units in replay order, one operation per unit; the
// engine runs them in the block's temporal mode through any Interface, with Verify, TimingScope
// and sweeps. Timing recorded (or scaled) releases each unit at its recorded start. What the
// engine cannot replay (opens, seeks, fsyncs, the other layer, the other kind) is counted in the
// figure beside the trace summary and the recorded bandwidth.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "replay_figure.hpp"
#include "replay_geometry.hpp"
#include "trace_load.hpp"

namespace pio::replay {
namespace {

using patterns::TemporalMode;

bool writes(TemporalMode m) { return m == TemporalMode::Write || m == TemporalMode::ReWrite; }

std::string base_name(const std::string &path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

class Replay : public patterns::PatternModule {
public:
  std::optional<Figure> figure(const ModuleResult &results) override {
    if (!loaded_)
      return std::nullopt;
    return make_figure(facts_, loaded_->summary, results);
  }

protected:
  std::vector<patterns::PatternTest> make_tests(const ModuleContext &ctx) override {
    const auto &s = ctx.settings;
    if (!s.has("Trace") || s.text("Trace").empty())
      throw DirectiveError("Trace", "a replay block needs the trace to replay",
                           "add 'Trace <file>': darshan-dxt-parser's text or an strace -f -ttt "
                           "-T log (docs/guides/replay.md)");
    if (mode() == TemporalMode::ReadModifyWrite)
      throw DirectiveError("Mode",
                           "a trace's reads and writes are its own: read-modify-write would read "
                           "and then write every traced operation",
                           "replay the writes with Mode write (or re-write) and the reads with "
                           "Mode read (or re-read), in two blocks; FilesFrom lets the second read "
                           "what the first wrote");
    TraceRequest q;
    q.path = s.text("Trace");
    if (s.has("TraceFormat"))
      q.format = s.text("TraceFormat") == "dxt" ? TraceFormat::Dxt : TraceFormat::Strace;
    q.file_pattern = s.has("TraceFile") ? s.text("TraceFile") : "";
    q.layer = s.text("TraceLayer") == "mpiio" ? Layer::MpiIo : Layer::Posix;
    const std::string ops = s.text("TraceOps");
    q.ops = ops == "all"      ? OpSelection::All
            : ops == "reads"  ? OpSelection::Reads
            : ops == "writes" ? OpSelection::Writes
            : writes(mode())  ? OpSelection::Writes
                              : OpSelection::Reads;
    q.mapping = parse_rank_mapping(s.text("TraceRanks"));
    q.run_ranks = ctx.size;
    q.header = header_offset();
    q.memory_budget = s.size("TraceMemory");
    q.keep_ops = !ctx.validate_only;

    const std::string timing = s.text("Timing");
    const bool scale_given = s.has("TimeScale");
    if (timing == "scaled" && !scale_given)
      throw DirectiveError("Timing", "Timing scaled without TimeScale",
                           "add 'TimeScale <factor>': the recorded gaps are multiplied by it "
                           "(0.5: twice as fast)");
    if (timing != "scaled" && scale_given)
      throw DirectiveError("TimeScale", "TimeScale applies to Timing scaled only",
                           "set Timing scaled, or remove TimeScale");
    const double scale = timing == "asap" ? -1 : timing == "scaled" ? s.real("TimeScale") : 1.0;
    // Verify checks every byte against one writer's stamps: the reads of an earlier block's
    // files (FilesFrom) were written by whoever wrote them there.
    const bool traced_reads = q.ops != OpSelection::Writes;
    if (ctx.shared.made_earlier && traced_reads && ctx.verify != VerifyMode::Off)
      throw DirectiveError("TraceOps",
                           "a FilesFrom block replaying the trace's reads cannot verify them: "
                           "the earlier block's ranks wrote its files with their own stamps",
                           "read back what the earlier block wrote (TraceOps writes), or set "
                           "Verify off");

    loaded_ = std::make_shared<LoadedTrace>(load_trace(q));
    const LoadedTrace &t = *loaded_;
    const std::int64_t busiest = *std::max_element(t.ops_per_rank.begin(), t.ops_per_rank.end());
    const std::int64_t units =
        s.has("WorkUnits") ? std::min(busiest, s.integer("WorkUnits")) : busiest;
    std::int64_t capped = 0;
    for (const auto n : t.ops_per_rank)
      capped += std::max<std::int64_t>(0, n - units);

    facts_.trace = q.path;
    facts_.format = t.format;
    facts_.file = t.file;
    facts_.layer = q.layer;
    facts_.mapping = q.mapping;
    facts_.trace_ranks = t.trace_ranks;
    facts_.run_ranks = ctx.size;
    facts_.files = t.files;
    facts_.ops = q.ops;
    facts_.mode = writes(mode()) ? "write" : "read";
    facts_.timing = timing;
    facts_.scale = scale;
    facts_.units = units;
    facts_.capped_ops = capped;
    facts_.replayed_ops = t.replayed_ops;
    facts_.replayed_bytes = t.replayed_bytes;
    facts_.not_replayed = t.not_replayed;
    facts_.spilled = t.store && t.store->spilled();
    facts_.memory = q.memory_budget;

    const std::int64_t mean = t.replayed_bytes / std::max<std::int64_t>(1, t.replayed_ops);
    patterns::PatternTest test{pattern_spec(base_name(t.file), mean), nullptr};
    test.spec.phases.at(0).work_units = units;
    // Reads of the trace may share bytes between ranks: rank 0 prepares them all (read modes).
    const bool shared_reads = traced_reads && !writes(mode());
    std::shared_ptr<const OpStore> store(loaded_, t.store.get());
    test.geometry = t.store ? std::make_shared<ReplayGeometry>(store, ctx.size, units, shared_reads,
                                                               t.first_start, scale)
                            : std::make_shared<ReplayGeometry>(nullptr, ctx.size, 0, false, 0, -1);
    auto &p = test.spec.params;
    p["trace"] = q.path;
    p["trace_format"] = to_string(t.format);
    p["trace_file"] = t.file;
    p["trace_layer"] = to_string(q.layer);
    p["trace_ops"] = to_string(q.ops);
    p["trace_ranks"] = to_string(q.mapping);
    p["trace_processes"] = std::to_string(t.trace_ranks);
    p["timing"] = timing;
    if (timing == "scaled")
      p["time_scale"] = std::to_string(scale);
    p["replayed_ops"] = std::to_string(t.replayed_ops - capped);
    return {test};
  }

private:
  std::shared_ptr<LoadedTrace> loaded_; // the trace as this rank read it (the figure: rank 0)
  ReplayFacts facts_;
};

std::vector<DirectiveSpec> directives() {
  auto d = patterns::pattern_directives(
      "", "at most this many traced operations per rank, the first in replay order (default: "
          "every one)");
  d.push_back({"Trace", DirectiveType::Text, "",
               "the trace to replay: darshan-dxt-parser's text or an strace -f -ttt -T log"});
  d.push_back({"TraceFormat",
               DirectiveType::Text,
               "",
               "dxt or strace (default: told from the trace's first lines)",
               {"dxt", "strace"}});
  d.push_back({"TraceFile", DirectiveType::Text, "",
               "the traced file to replay, a glob (without '/': of the base name); needed when "
               "the trace has reads or writes of several files"});
  d.push_back({"TraceLayer",
               DirectiveType::Text,
               "posix",
               "DXT: replay the X_POSIX records (what reached the file) or the X_MPIIO ones",
               {"posix", "mpiio"}});
  d.push_back({"TraceOps",
               DirectiveType::Text,
               "auto",
               "which traced operations become work units: writes, reads, all (auto: writes in "
               "Mode write and re-write, reads in read and re-read)",
               {"auto", "writes", "reads", "all"}});
  d.push_back({"TraceRanks",
               DirectiveType::Text,
               "exact",
               "trace rank t replays on run rank t (exact), t mod P (modulo) or t x P / T "
               "(scaled: each run rank a share of a larger trace's ranks)",
               {"exact", "modulo", "scaled"}});
  d.push_back({"Timing",
               DirectiveType::Text,
               "asap",
               "asap: every operation at once after the previous; recorded: each at its recorded "
               "start; scaled: the recorded gaps times TimeScale",
               {"asap", "recorded", "scaled"}});
  d.push_back(DirectiveSpec{"TimeScale", DirectiveType::Real, "",
                            "Timing scaled: the factor on the recorded times (0.5: twice as fast)"}
                  .at_least(1e-9));
  d.push_back(DirectiveSpec{"TraceMemory", DirectiveType::Size, "64M",
                            "memory each rank may hold of the replayed operations (40 bytes "
                            "each); beyond it they are sorted on disk in TMPDIR"}
                  .at_least(64 * 1024));
  return d;
}

ModuleInfo info() {
  ModuleInfo m("replay", make_module<Replay>);
  m.title = "Replay";
  m.summary = "an application's traced reads and writes (darshan DXT text, strace log) replayed "
              "per rank as work units of the pattern engine";
  m.reference = "docs/guides/replay.md; darshan-util, 'Guide to darshan-dxt-parser output'";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::replay

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::replay::info()})
