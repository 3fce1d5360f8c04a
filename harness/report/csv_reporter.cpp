#include "report/csv_reporter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "pio/error.hpp"
#include "report/figure_text.hpp"
#include "report/flag_text.hpp"

namespace pio::harness {

namespace {
/// Columns before the parameters: which run, block and test a row belongs to.
const std::vector<std::string> kIdColumns = {
    "module",        "block",        "config",       "test",     "label",      "buffer_size",
    "header_offset", "procs",        "groups",       "file_use", "collective", "file_view",
    "interface",     "timing_scope", "stone_wall_s", "verify",   "sync_writes"};
/// Columns after the parameters and hints: what a repetition measured.
const std::vector<std::string> kMeasureColumns = {"rep",
                                                  "units",
                                                  "bytes",
                                                  "aggregate_time_s",
                                                  "bandwidth_MiBps",
                                                  "ops",
                                                  "ops_per_s",
                                                  "rate_unit",
                                                  "open_time_s",
                                                  "close_time_s",
                                                  "rank_time_min_s",
                                                  "rank_time_mean_s",
                                                  "rank_time_max_s",
                                                  "message_bytes",
                                                  "ops_per_unit",
                                                  "t_min_us",
                                                  "t_avg_us",
                                                  "t_max_us",
                                                  "mbytes_per_s",
                                                  "error",
                                                  "test_started",
                                                  "test_finished",
                                                  "figure",
                                                  "figure_value",
                                                  "value",
                                                  "unit",
                                                  "cache_mode",
                                                  "cache_resident_fraction",
                                                  "cache_dirty_fraction",
                                                  "cv",
                                                  "median_ci_low",
                                                  "median_ci_high",
                                                  "test_flags",
                                                  "rep_flags",
                                                  "flag_reasons"};

/// Nine significant digits, never an exponent (8e-05 is 0.00008).
std::string number(double v) { return plain_number(v, 9); }

bool fixed_column(const std::string &name) {
  return std::find(kIdColumns.begin(), kIdColumns.end(), name) != kIdColumns.end() ||
         std::find(kMeasureColumns.begin(), kMeasureColumns.end(), name) != kMeasureColumns.end();
}

/// A parameter's column: its key, or "param:<key>" where the key names a fixed column.
std::string param_column(const std::string &key) {
  return fixed_column(key) ? "param:" + key : key;
}

/// The column of a block's module setting (swept or not: BufferSizes, Mode, Processes ...);
/// a swept hint (Hint:<key>) has its hint:<key> column already.
std::string setting_column(const std::string &name) {
  return name.rfind("Hint:", 0) == 0 ? std::string() : "setting:" + name;
}

/// Adds the block's setting columns to columns, in order of first appearance.
void add_setting_columns(std::vector<std::string> &columns, const ModuleResult &block) {
  for (const auto &[name, words] : block.settings) {
    const std::string c = setting_column(name);
    if (!c.empty() && std::find(columns.begin(), columns.end(), c) == columns.end())
      columns.push_back(c);
  }
}

} // namespace

std::string csv_field(const std::string &text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

CsvReporter::CsvReporter(std::string path, bool overwrite)
    : file_(std::move(path), overwrite, "CSV file",
            "name a new CSV file in a writable directory with -o csv=FILE or CsvFile") {}

void CsvReporter::add_column(std::vector<std::string> &columns, const std::string &name) {
  if (std::find(columns.begin(), columns.end(), name) == columns.end())
    columns.push_back(name);
}

CsvReporter::Row CsvReporter::block_cells(const ModuleResult &block) const {
  Row row = {{"module", block.module}, {"block", block.label}, {"config", block.config_location}};
  // The block's settings among the columns that say which block a row is of (CacheMode sits
  // with the page cache's measures, on a test's rows; the hints have a column per key, from the
  // tests').
  each_result_setting(block, [&](const std::string &key, const auto &value) {
    using V = std::decay_t<decltype(value)>;
    if (std::find(kIdColumns.begin(), kIdColumns.end(), key) == kIdColumns.end())
      return;
    if constexpr (std::is_same_v<V, bool>)
      row[key] = value ? "true" : "false";
    else if constexpr (std::is_same_v<V, long>)
      row[key] = std::to_string(value);
    else if constexpr (std::is_same_v<V, std::string>)
      row[key] = value;
  });
  for (const auto &[name, words] : block.settings) {
    std::string value;
    for (const auto &w : words)
      value += (value.empty() ? "" : " ") + w;
    if (!setting_column(name).empty())
      row[setting_column(name)] = value;
  }
  return row;
}

std::vector<std::string> CsvReporter::header() const {
  std::vector<std::string> h = kIdColumns;
  h.insert(h.end(), params_.begin(), params_.end());
  h.insert(h.end(), hints_.begin(), hints_.end());
  h.insert(h.end(), kMeasureColumns.begin(), kMeasureColumns.end());
  h.insert(h.end(), latency_.begin(), latency_.end());
  return h;
}

void CsvReporter::run_started(const RunResult &) { write(true); }

void CsvReporter::block_started(const RunResult &, const ModuleResult &, int, int) {
  block_first_row_ = rows_.size();
}

void CsvReporter::test_finished(const RunResult &, const ModuleResult &block,
                                const TestResult &test) {
  add_setting_columns(params_, block);
  Row base = block_cells(block);
  base["test"] = std::to_string(test.index);
  base["label"] = test.label;
  base["buffer_size"] = std::to_string(test.buffer_size);
  base["header_offset"] = std::to_string(test.header_offset);
  base["procs"] = std::to_string(test.procs);
  base["groups"] = std::to_string(test.groups);
  base["file_use"] = to_string(test.file_use);
  base["timing_scope"] = to_string(test.timing_scope);
  base["stone_wall_s"] = number(test.stone_wall_s);
  base["test_started"] = test.started;
  base["test_finished"] = test.finished;
  for (const auto &[key, value] : test.params) {
    add_column(params_, param_column(key));
    base[param_column(key)] = value;
  }
  for (const auto &[key, value] : test.hints_requested) {
    add_column(hints_, "hint:" + key);
    base["hint:" + key] = value;
  }
  if (test.comm) {
    base["message_bytes"] = std::to_string(test.comm->message_bytes);
    base["ops_per_unit"] = std::to_string(test.comm->ops_per_unit);
  }
  base["cache_mode"] = to_string(block.cache_mode);
  test_cells(base, test);
  for (const auto &rep : test.reps) {
    Row row = base;
    row["rep_flags"] = flag_names(rep.flags);
    for (const auto &p : rep.phases) // the first read phase's residency
      if (p.cache && p.cache->access != PhaseAccess::Write && p.cache->range_bytes > 0) {
        row["cache_resident_fraction"] = number(static_cast<double>(p.cache->resident_bytes) /
                                                static_cast<double>(p.cache->range_bytes));
        break;
      }
    for (const auto &p : rep.phases) // the first write phase's bytes not yet on storage
      if (p.cache && p.cache->access == PhaseAccess::Write && p.cache->dirty_bytes >= 0 &&
          p.cache->range_bytes > 0) {
        row["cache_dirty_fraction"] = number(static_cast<double>(p.cache->dirty_bytes) /
                                             static_cast<double>(p.cache->range_bytes));
        break;
      }
    for (const auto &p : rep.phases) // per-operation latencies (a backend with QueueDepth)
      if (p.latency) {
        const auto put = [&](const std::string &stat, const std::string &value) {
          // clat:<phase>:<stat>; a test's one unnamed phase: clat:<stat>
          const std::string column =
              "clat:" + (p.label.empty() ? std::string() : p.label + ":") + stat;
          add_column(latency_, column);
          row[column] = value;
        };
        put("count", std::to_string(p.latency->count));
        put("min_us", number(p.latency->min_us));
        put("mean_us", number(p.latency->mean_us));
        put("max_us", number(p.latency->max_us));
        for (size_t i = 0; i < p.latency->percentiles_us.size(); ++i)
          put(latency_percentile_name(kLatencyPercentiles[i]) + "_us",
              number(p.latency->percentiles_us[i]));
      }
    row["rep"] = std::to_string(rep.rep);
    row["units"] = std::to_string(rep.units);
    row["bytes"] = std::to_string(rep.bytes);
    row["aggregate_time_s"] = number(rep.aggregate_time_s);
    row["bandwidth_MiBps"] = number(rep.bandwidth_MiBps);
    row["ops"] = std::to_string(rep.ops);
    row["ops_per_s"] = number(rep.ops_per_s);
    row["rate_unit"] = merit_unit(test.merit);
    row["open_time_s"] = number(rep.open_time_s);
    row["close_time_s"] = number(rep.close_time_s);
    row["rank_time_min_s"] = number(rep.rank_time_s.min);
    row["rank_time_mean_s"] = number(rep.rank_time_s.mean);
    row["rank_time_max_s"] = number(rep.rank_time_s.max);
    if (rep.op) {
      row["t_min_us"] = number(rep.op->t_min_us);
      row["t_avg_us"] = number(rep.op->t_avg_us);
      row["t_max_us"] = number(rep.op->t_max_us);
      row["mbytes_per_s"] = number(rep.op->mbytes_per_s);
    }
    row_test_.push_back(test.index);
    rows_.push_back(std::move(row));
  }
  if (test.error) {
    // The failure gets its own row (no measurements), after the repetitions that completed.
    base["error"] = test.error->message;
    row_test_.push_back(test.index);
    rows_.push_back(std::move(base));
  }
  write(false);
}

void CsvReporter::test_cells(Row &row, const TestResult &test) {
  const Steadiness &st = test.summary.steadiness;
  row["cv"] = st.count > 1 ? number(st.cv) : std::string();
  row["median_ci_low"] = st.ci_low ? number(*st.ci_low) : std::string();
  row["median_ci_high"] = st.ci_high ? number(*st.ci_high) : std::string();
  row["test_flags"] = flag_names(test.flags);
  row["flag_reasons"] = flag_reasons(test.flags);
}

void CsvReporter::block_finished(const RunResult &, const ModuleResult &block) {
  // Flags raised on a test after its rows were made (a communication table's first length).
  std::map<int, const TestResult *> by_index;
  for (const auto &test : block.tests)
    by_index[test.index] = &test;
  for (size_t i = block_first_row_; i < rows_.size(); ++i)
    if (const auto t = by_index.find(row_test_[i]); t != by_index.end())
      test_cells(rows_[i], *t->second);
  if (!block.error && !block.figure) {
    write(false);
    return;
  }
  add_setting_columns(params_, block);
  if (block.figure) // a row per value of the figure of merit, its tables stay in the JSON
    for (const auto &v : block.figure->values) {
      Row row = block_cells(block);
      row["figure"] = block.figure->name;
      row["figure_value"] = v.name;
      row["value"] = std::isnan(v.value) ? std::string() : plain_number(v.value, 9);
      row["unit"] = std::isnan(v.value) ? std::string("not measured") : v.unit;
      row_test_.push_back(-1);
      rows_.push_back(std::move(row));
    }
  if (block.error) {
    Row row = block_cells(block);
    row["error"] = block.error->message;
    row_test_.push_back(-1);
    rows_.push_back(std::move(row));
  }
  write(true);
}

void CsvReporter::run_finished(const RunResult &) { write(true); }

std::string CsvReporter::text() const {
  std::string text;
  const std::vector<std::string> columns = header();
  for (size_t c = 0; c < columns.size(); ++c)
    text += (c ? "," : "") + csv_field(columns[c]);
  text += "\n";
  for (const Row &row : rows_) {
    for (size_t c = 0; c < columns.size(); ++c) {
      auto cell = row.find(columns[c]);
      text += (c ? "," : "") + (cell == row.end() ? std::string() : csv_field(cell->second));
    }
    text += "\n";
  }
  return text;
}

void CsvReporter::write(bool force) {
  save_when_due(schedule_, force, [&] { return file_.save_text(text()); });
}

} // namespace pio::harness
