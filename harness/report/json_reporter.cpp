#include "report/json_reporter.hpp"

#include <iterator>

#include "guard/results_mark.hpp"

#include "pio/error.hpp"
#include "report/results_file.hpp"

namespace pio::harness {

namespace {

using harness::to_json; // the public overloads, next to the ones below

const char *report_name(Report r) {
  switch (r) {
  case Report::Bandwidth:
    return "bandwidth";
  case Report::Latency:
    return "latency";
  case Report::Both:
    return "both";
  }
  return "?";
}

nlohmann::json to_json(const OpTimes &t) {
  return {{"group", t.group},       {"ranks", t.ranks},       {"t_min_us", t.t_min_us},
          {"t_avg_us", t.t_avg_us}, {"t_max_us", t.t_max_us}, {"mbytes_per_s", t.mbytes_per_s}};
}

nlohmann::json optional_json(const std::optional<OpTimes> &t) {
  return t ? to_json(*t) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const std::optional<ErrorRecord> &e) {
  if (!e)
    return nullptr;
  return {{"rank", e->rank}, {"host", e->host}, {"message", e->message}};
}

nlohmann::json to_json(const OpLatencies &l) {
  nlohmann::json percentiles = nlohmann::json::object();
  for (size_t i = 0; i < l.percentiles_us.size() && i < std::size(kLatencyPercentiles); ++i)
    percentiles[latency_percentile_name(kLatencyPercentiles[i])] = l.percentiles_us[i];
  return {{"count", l.count},
          {"min_us", l.min_us},
          {"mean_us", l.mean_us},
          {"max_us", l.max_us},
          {"percentiles_us", percentiles}};
}

nlohmann::json to_json(const std::vector<FlagRecord> &flags) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &f : flags)
    out.push_back({{"flag", to_string(f.flag)}, {"reason", f.reason}});
  return out;
}

const char *access_name(PhaseAccess a) {
  switch (a) {
  case PhaseAccess::Unstated:
    return "unstated";
  case PhaseAccess::Write:
    return "write";
  case PhaseAccess::Read:
    return "read";
  case PhaseAccess::ReRead:
    return "re-read";
  }
  return "?";
}

nlohmann::json to_json(const std::optional<CacheCheck> &c) {
  if (!c)
    return nullptr;
  return {{"range_bytes", c->range_bytes},
          {"resident_bytes", c->resident_bytes},
          {"resident_fraction", c->range_bytes > 0 ? static_cast<double>(c->resident_bytes) /
                                                         static_cast<double>(c->range_bytes)
                                                   : 0.0},
          {"max_node_fraction", c->max_node_fraction},
          {"dirty_bytes",
           c->dirty_bytes < 0 ? nlohmann::json(nullptr) : nlohmann::json(c->dirty_bytes)},
          {"probe", to_string(c->probe)},
          {"dropped", c->dropped},
          {"drop_time_s", c->drop_time_s},
          {"memory_file_system", c->memory_file_system},
          {"access", access_name(c->access)}};
}

nlohmann::json to_json(const Steadiness &s) {
  return {{"count", s.count},
          {"median", s.median},
          {"cv", s.cv},
          {"min_over_median", s.min_over_median},
          {"max_over_median", s.max_over_median},
          {"median_ci", s.ci_low ? nlohmann::json{{"low", *s.ci_low},
                                                  {"high", *s.ci_high},
                                                  {"level", s.ci_level},
                                                  {"half_width", s.ci_half_width},
                                                  {"method", "order statistics"}}
                                 : nlohmann::json(nullptr)}};
}

nlohmann::json to_json(const TestConditions &c) {
  return {{"ranks_per_node", c.ranks_per_node},
          {"usable_cores", c.usable_cores},
          {"cpu_wait_fraction",
           c.cpu_wait_fraction < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.cpu_wait_fraction)},
          {"node_cpu_pressure",
           c.node_cpu_pressure < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.node_cpu_pressure)},
          {"swapped_pages", c.swapped_pages}};
}

nlohmann::json to_json(const NodeConditions &c) {
  return {{"usable_cores", c.usable_cores},
          {"cpus_allowed", c.cpus_allowed},
          {"rank_cpus", c.rank_cpus},
          {"cpu_quota", c.cpu_quota},
          {"load_average", {c.load_1m, c.load_5m, c.load_15m}},
          {"governor", c.governor.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.governor)},
          {"free_page_reporting", c.free_page_reporting ? nlohmann::json(*c.free_page_reporting)
                                                        : nlohmann::json(nullptr)},
          {"memory_copy_MiBps", c.memory_copy_MiBps},
          {"cpu_pressure", c.cpu_pressure},
          {"swapped_pages",
           c.swapped_pages < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.swapped_pages)}};
}

nlohmann::json to_json(const PhaseResult &p) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto &g : p.groups)
    groups.push_back(to_json(g));
  nlohmann::json j = {
      {"label", p.label},
      {"units", p.units},
      {"bytes", p.bytes},
      {"aggregate_time_s", p.aggregate_time_s},
      {"elapsed_time_s", p.elapsed_time_s},
      {"time_budget_s", p.time_budget_s},
      {"units_limit", p.units_limit},
      {"end_check", p.end_check ? nlohmann::json(to_string(*p.end_check)) : nullptr},
      {"stonewalled", p.stonewalled},
      {"timing_scope", to_string(p.timing_scope)},
      {"bandwidth_MiBps", p.bandwidth_MiBps},
      {"ops", p.ops},
      {"ops_per_s", p.ops_per_s},
      {"rank_time_s", to_json(p.rank_time_s)},
      {"groups", groups},
      {"cache", to_json(p.cache)}};
  if (p.units_at_stop_max > 0) { // StoneWallWearOut
    j["units_at_stop"] = {{"min", p.units_at_stop_min}, {"max", p.units_at_stop_max}};
    j["stonewall_time_s"] = p.stonewall_time_s;
    j["wear_out_time_s"] = p.wear_out_time_s;
  }
  if (p.units_overlapped)
    j["units_overlapped"] = true;
  if (p.latency)
    j["latency"] = to_json(*p.latency);
  return j;
}

nlohmann::json to_json(const Repetition &r) {
  nlohmann::json phases = nlohmann::json::array();
  for (const auto &p : r.phases)
    phases.push_back(to_json(p));
  return {{"rep", r.rep},
          {"open_time_s", r.open_time_s},
          {"close_time_s", r.close_time_s},
          {"phases", phases},
          {"units", r.units},
          {"bytes", r.bytes},
          {"aggregate_time_s", r.aggregate_time_s},
          {"bandwidth_MiBps", r.bandwidth_MiBps},
          {"ops", r.ops},
          {"ops_per_s", r.ops_per_s},
          {"rank_time_s", to_json(r.rank_time_s)},
          {"op", optional_json(r.op)},
          {"flags", to_json(r.flags)}};
}

nlohmann::json to_json(const TestSummary &s) {
  return {{"bandwidth_MiBps", to_json(s.bandwidth_MiBps)},
          {"ops_per_s", to_json(s.ops_per_s)},
          {"aggregate_time_s", to_json(s.aggregate_time_s)},
          {"open_time_s", to_json(s.open_time_s)},
          {"close_time_s", to_json(s.close_time_s)},
          // Means over repetitions of each repetition's min / mean / max over ranks.
          {"rank_time_s",
           {{"min", s.rank_min_s.mean}, {"mean", s.rank_mean_s.mean}, {"max", s.rank_max_s.mean}}},
          {"rank_min_s", to_json(s.rank_min_s)},
          {"rank_mean_s", to_json(s.rank_mean_s)},
          {"rank_max_s", to_json(s.rank_max_s)},
          {"op", optional_json(s.op)},
          {"steadiness", to_json(s.steadiness)}};
}

nlohmann::json config_files_json(const std::vector<ConfigFile> &files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &f : files)
    out.push_back({{"path", f.path},
                   {"included_from", f.included_from.empty() ? nlohmann::json(nullptr)
                                                             : nlohmann::json(f.included_from)},
                   {"text", f.text}});
  return out;
}

nlohmann::json config_variables_json(const std::vector<ConfigVariable> &vars) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &v : vars)
    out.push_back({{"name", v.name},
                   {"value", v.value},
                   {"set", v.set},
                   {"from_default", v.from_default},
                   {"file", v.file},
                   {"line", v.line}});
  return out;
}

nlohmann::json to_json(const Cell &c) {
  return std::visit([](const auto &v) { return nlohmann::json(v); }, c);
}

} // namespace

nlohmann::json to_json(const Stats &s) {
  return {{"min", s.min},       {"max", s.max},       {"mean", s.mean},
          {"median", s.median}, {"stddev", s.stddev}, {"count", s.count}};
}

nlohmann::json to_json(const Figure &f) {
  nlohmann::json values = nlohmann::json::array(), tables = nlohmann::json::array();
  for (const auto &v : f.values)
    values.push_back({{"name", v.name}, {"value", v.value}, {"unit", v.unit}});
  for (const auto &t : f.tables) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto &r : t.rows) {
      nlohmann::json row = nlohmann::json::array();
      for (const auto &c : r)
        row.push_back(to_json(c));
      rows.push_back(row);
    }
    tables.push_back({{"name", t.name}, {"columns", t.columns}, {"rows", rows}});
  }
  return {{"name", f.name}, {"values", values}, {"tables", tables}, {"notes", f.notes}};
}

nlohmann::json to_json(const TestResult &t) {
  nlohmann::json reps = nlohmann::json::array();
  for (const auto &r : t.reps)
    reps.push_back(to_json(r));
  nlohmann::json comm = nullptr;
  if (t.comm)
    comm = {{"ops_per_unit", t.comm->ops_per_unit},
            {"time_scale", t.comm->time_scale},
            {"message_bytes", t.comm->message_bytes},
            {"bytes_scale", t.comm->bytes_scale},
            {"report", report_name(t.comm->report)}};
  return {{"index", t.index},
          {"label", t.label},
          {"buffer_size", t.buffer_size},
          {"header_offset", t.header_offset},
          {"file_use", to_string(t.file_use)},
          {"procs", t.procs},
          {"groups", t.groups},
          {"file", t.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.file)},
          {"params", t.params},
          {"hints_requested", t.hints_requested},
          {"hints_in_effect", t.hints_in_effect},
          {"comm", comm},
          {"timing_scope", to_string(t.timing_scope)},
          {"stone_wall_s", t.stone_wall_s},
          {"rate_unit", merit_unit(t.merit)},
          {"reps", reps},
          {"summary", to_json(t.summary)},
          {"error", to_json(t.error)},
          {"started", t.started},
          {"finished", t.finished},
          {"conditions", to_json(t.conditions)},
          {"reps_stop",
           t.reps_stop ? nlohmann::json(to_string(*t.reps_stop)) : nlohmann::json(nullptr)},
          {"flags", to_json(t.flags)},
          {"notes", t.notes}};
}

nlohmann::json to_json(const ModuleResult &m) {
  nlohmann::json tests = nlohmann::json::array();
  for (const auto &t : m.tests)
    tests.push_back(to_json(t));
  nlohmann::json out = {
      {"module", m.module},
      {"module_name", m.module_name},
      {"label", m.label},
      {"config", m.config_location},
      {"library", m.library},
      {"reference", m.reference},
      {"output", m.output == Output::Imb      ? "imb"
                 : m.output == Output::Figure ? "figure"
                                              : "table"},
      {"family", to_string(m.family)},
      {"reps", m.reps},
      {"reps_auto",
       m.reps_auto ? nlohmann::json{{"target", m.reps_target}, {"time_cap_s", m.reps_time_cap_s}}
                   : nlohmann::json(nullptr)},
      {"read_shift", m.read_shift},
      {"settings", m.settings},
      {"interface_settings", m.interface_settings},
      {"files_from", m.files_from.empty() ? nlohmann::json() : nlohmann::json(m.files_from)},
      {"tests_planned", m.tests_planned},
      {"time_budget_s", m.time_budget_s},
      {"started", m.started},
      {"finished", m.finished},
      {"tests", tests},
      {"error", to_json(m.error)},
      {"figure", m.figure ? to_json(*m.figure) : nlohmann::json(nullptr)}};
  each_result_setting(m, [&](const char *key, const auto &value) { out[key] = value; });
  return out;
}

nlohmann::json to_json(const FileSystemInfo &fs) {
  nlohmann::json volume(nullptr);
  if (!fs.volume_graph.empty() || !fs.client_command_line.empty()) {
    nlohmann::json graph = nlohmann::json::array();
    for (const auto &t : fs.volume_graph) {
      nlohmann::json options = nlohmann::json::object();
      for (const auto &[key, value] : t.options)
        options[key] = value;
      graph.push_back(
          {{"name", t.name}, {"type", t.type}, {"options", options}, {"subvolumes", t.subvolumes}});
    }
    volume = {{"graph", graph}, {"client_command_line", fs.client_command_line}};
  }
  return {{"type", fs.type},
          {"subtype", fs.subtype},
          {"mount_point", fs.mount_point},
          {"source", fs.source},
          {"mount_options", fs.mount_options},
          {"super_options", fs.super_options},
          {"loop", fs.loop_backing_file.empty()
                       ? nlohmann::json(nullptr)
                       : nlohmann::json{{"backing_file", fs.loop_backing_file},
                                        {"direct_io", fs.loop_direct_io}}},
          {"volume", volume}};
}

nlohmann::json to_json(const RunResult &run) {
  nlohmann::json hosts = nlohmann::json::array(), modules = nlohmann::json::array();
  for (const auto &h : run.hosts)
    hosts.push_back({{"host", h.name},
                     {"ranks", h.ranks.size()},
                     {"rank_list", h.ranks},
                     {"memory_bytes", h.memory_bytes},
                     {"cpus", h.cpus},
                     {"cpu_model", h.cpu_model},
                     {"kernel", h.kernel},
                     {"os", h.os},
                     {"file_system", to_json(h.file_system)},
                     {"conditions", to_json(h.conditions)}});
  for (size_t i = 0; i < run.modules.size(); ++i) {
    modules.push_back(to_json(run.modules[i]));
    if (i < run.block_rounds.size()) { // Rounds: the same block once per round (rounds.hpp)
      modules.back()["round"] = run.block_rounds[i].round;
      modules.back()["block_index"] = run.block_rounds[i].block;
    }
  }
  return {{"schema_version", run.schema_version},
          {"tool", "pio-bench"},
          {"tool_version", run.tool_version},
          {"module_api_version", run.module_api_version},
          {"date", run.date},
          {"command_line", run.command_line},
          {"mpi_library", run.mpi_library},
          {"mpi_standard", run.mpi_standard},
          {"io_libraries", run.io_libraries},
          {"processes", run.processes},
          {"hosts", hosts},
          {"test_file", run.test_file},
          {"test_path", run.test_path},
          {"working_directory", run.working_directory},
          {"startup_s", run.startup_s},
          {"file_system", run.file_system},
          {"config_path", run.config_path},
          {"config_text", run.config_text},
          {"config_files", config_files_json(run.config_files)},
          {"config_variables", config_variables_json(run.config_variables)},
          {"environment", run.environment},
          {"romio_hints_text",
           run.romio_hints_text ? nlohmann::json(*run.romio_hints_text) : nlohmann::json(nullptr)},
          {"batch_job", run.batch_job ? nlohmann::json{{"scheduler", run.batch_job->scheduler},
                                                       {"id", run.batch_job->id},
                                                       {"nodes", run.batch_job->nodes},
                                                       {"node_count", run.batch_job->node_count},
                                                       {"tasks", run.batch_job->tasks},
                                                       {"partition", run.batch_job->partition}}
                                      : nlohmann::json(nullptr)},
          {"suite_time_s", run.suite_time_s},
          {"rounds", run.rounds},
          {"rounds_seed", run.rounds_seed},
          {"tuned", run.tuned},
          {"status", run.status},
          {"exit_code", run.exit_code},
          {"modules", modules}};
}

void JsonReporter::save(const RunResult &run, bool force) {
  try {
    save_when_due(schedule_, force, [&] {
      const std::size_t bytes = file_.save(to_json(run));
      set_results_document(file_.path()); // a signal marks it interrupted (results_mark.hpp)
      return bytes;
    });
  } catch (const Error &e) {
    *err_ << "pio-harness: warning: " << e.what() << " (fix: " << e.hint() << ")\n";
  }
}

} // namespace pio::harness
