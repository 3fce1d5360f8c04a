#include "csv_reporter.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "pio/error.hpp"

namespace pio::harness {

namespace {
/// Columns before the parameters: which run, block and test a row belongs to.
const std::vector<std::string> kIdColumns = {"module", "block",       "config",        "test",
                                             "label",  "buffer_size", "header_offset", "procs",
                                             "groups", "file_use",    "collective",    "file_view"};
/// Columns after the parameters and hints: what a repetition measured.
const std::vector<std::string> kMeasureColumns = {
    "rep",           "units",        "bytes",           "aggregate_time_s", "bandwidth_MiBps",
    "open_time_s",   "close_time_s", "rank_time_min_s", "rank_time_mean_s", "rank_time_max_s",
    "message_bytes", "ops_per_unit", "t_min_us",        "t_avg_us",         "t_max_us",
    "mbytes_per_s",  "error"};

bool exists(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

const char *file_use_name(FileUse use) {
  switch (use) {
  case FileUse::None:
    return "none";
  case FileUse::Shared:
    return "shared";
  case FileUse::FilePerProcess:
    return "file_per_process";
  }
  return "";
}

bool fixed_column(const std::string &name) {
  return std::find(kIdColumns.begin(), kIdColumns.end(), name) != kIdColumns.end() ||
         std::find(kMeasureColumns.begin(), kMeasureColumns.end(), name) != kMeasureColumns.end();
}

/// A parameter's column: its key, or "param:<key>" where the key names a fixed column.
std::string param_column(const std::string &key) {
  return fixed_column(key) ? "param:" + key : key;
}

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
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

CsvReporter::CsvReporter(std::string path, bool overwrite) : path_(std::move(path)) {
  if (path_.empty())
    throw Error("the CSV file name is empty", "name a file, e.g. -o csv=results.csv");
  if (!overwrite && exists(path_))
    throw Error("CSV file " + path_ +
                    " exists; pio-bench never overwrites a file it did not "
                    "create",
                "name a new file (-o csv=FILE or CsvFile), remove it, or pass --overwrite");
  if (exists(path_ + ".tmp"))
    throw Error("CSV temporary file " + path_ + ".tmp exists (left by a crashed run?)",
                "remove it if no other run is writing " + path_);
}

void CsvReporter::add_column(std::vector<std::string> &columns, const std::string &name) {
  if (std::find(columns.begin(), columns.end(), name) == columns.end())
    columns.push_back(name);
}

CsvReporter::Row CsvReporter::block_cells(const ModuleResult &block) const {
  return {{"module", block.module},
          {"block", block.label},
          {"config", block.config_location},
          {"collective", block.collective ? "true" : "false"},
          {"file_view", block.file_view ? "true" : "false"}};
}

std::vector<std::string> CsvReporter::header() const {
  std::vector<std::string> h = kIdColumns;
  h.insert(h.end(), params_.begin(), params_.end());
  h.insert(h.end(), hints_.begin(), hints_.end());
  h.insert(h.end(), kMeasureColumns.begin(), kMeasureColumns.end());
  return h;
}

void CsvReporter::run_started(const RunResult &) { write(); }

void CsvReporter::test_finished(const RunResult &, const ModuleResult &block,
                                const TestResult &test) {
  Row base = block_cells(block);
  base["test"] = std::to_string(test.index);
  base["label"] = test.label;
  base["buffer_size"] = std::to_string(test.buffer_size);
  base["header_offset"] = std::to_string(test.header_offset);
  base["procs"] = std::to_string(test.procs);
  base["groups"] = std::to_string(test.groups);
  base["file_use"] = file_use_name(test.file_use);
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
  for (const auto &rep : test.reps) {
    Row row = base;
    row["rep"] = std::to_string(rep.rep);
    row["units"] = std::to_string(rep.units);
    row["bytes"] = std::to_string(rep.bytes);
    row["aggregate_time_s"] = number(rep.aggregate_time_s);
    row["bandwidth_MiBps"] = number(rep.bandwidth_MiBps);
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
    rows_.push_back(std::move(row));
  }
  if (test.error) {
    // The failure gets its own row (no measurements), after the repetitions that completed.
    base["error"] = test.error->message;
    rows_.push_back(std::move(base));
  }
  write();
}

void CsvReporter::block_finished(const RunResult &, const ModuleResult &block) {
  if (!block.error)
    return;
  Row row = block_cells(block);
  row["error"] = block.error->message;
  rows_.push_back(std::move(row));
  write();
}

void CsvReporter::write() const {
  const std::string tmp = path_ + ".tmp";
  {
    // "x": never clobber a temporary someone else created since the constructor checked.
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(tmp.c_str(), "wx"));
    if (!f)
      throw Error("cannot create CSV temporary file " + tmp + ": " + std::strerror(errno),
                  errno == EEXIST ? "remove it if no other run is writing " + path_
                                  : "name a writable CSV file (-o csv=FILE or CsvFile)");
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
    const bool ok = std::fwrite(text.data(), 1, text.size(), f.get()) == text.size() &&
                    std::fflush(f.get()) == 0;
    if (!ok || std::fclose(f.release()) != 0) {
      std::remove(tmp.c_str());
      throw Error("writing CSV file " + tmp + " failed", "check free space");
    }
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw Error("cannot rename " + tmp + " to " + path_ + ": " + why,
                "name a writable CSV file (-o csv=FILE or CsvFile)");
  }
}

} // namespace pio::harness
