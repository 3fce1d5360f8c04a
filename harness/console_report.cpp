#include "console_report.hpp"

#include <cstdio>

#include "pio/directive.hpp"

namespace pio::harness {

namespace {
std::string cell(const char *fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string row(const std::string &label, const std::string &buffer, const std::string &units,
                const std::string &rep, const nlohmann::json &r, const TableOptions &opt,
                std::int64_t header_offset) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %-18s %8s %8s %5s %12s %11s %11s %11s %11s", label.c_str(),
                buffer.c_str(), units.c_str(), rep.c_str(),
                cell("%.2f", r.value("bandwidth_MiBps", 0.0)).c_str(),
                cell("%.6f", r.value("aggregate_time_s", 0.0)).c_str(),
                cell("%.6f", r["rank_time_s"].value("min", 0.0)).c_str(),
                cell("%.6f", r["rank_time_s"].value("mean", 0.0)).c_str(),
                cell("%.6f", r["rank_time_s"].value("max", 0.0)).c_str());
  std::string s = buf;
  if (opt.open_time)
    s += cell(" %10.6f", r.value("open_time_s", 0.0));
  if (opt.close_time)
    s += cell(" %10.6f", r.value("close_time_s", 0.0));
  if (opt.header_offset)
    s += " " + std::string(10 - std::min<size_t>(10, format_size(header_offset).size()), ' ') +
         format_size(header_offset);
  return s + "\n";
}
} // namespace

void print_module_header(std::ostream &out, const std::string &heading, const TableOptions &opt) {
  out << "\n== " << heading << "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %-18s %8s %8s %5s %12s %11s %11s %11s %11s", "test", "buffer",
                "units", "rep", "MiB/s", "agg time s", "rank min s", "rank mean s", "rank max s");
  out << buf;
  if (opt.open_time)
    out << "     open s";
  if (opt.close_time)
    out << "    close s";
  if (opt.header_offset)
    out << "     header";
  out << "\n";
}

void print_test_rows(std::ostream &out, const nlohmann::json &test, const TableOptions &opt) {
  const std::string label = test.value("label", "");
  const std::string buffer = format_size(test.value("buffer_size", std::int64_t(0)));
  const std::int64_t header = test.value("header_offset", std::int64_t(0));
  const auto &reps = test["reps"];
  if (opt.show_averages && !reps.empty()) {
    // Thesis Table 3.1 ShowAverages: average over repetitions for each buffer size.
    nlohmann::json avg = {{"bandwidth_MiBps", test["summary"]["bandwidth_MiBps"]["mean"]},
                          {"aggregate_time_s", test["summary"]["aggregate_time_s"]["mean"]},
                          {"rank_time_s", test["summary"]["rank_time_s"]},
                          {"open_time_s", test["summary"]["open_time_s"]["mean"]},
                          {"close_time_s", test["summary"]["close_time_s"]["mean"]}};
    out << row(label, buffer, std::to_string(reps.back().value("units", std::int64_t(0))),
               "avg" + std::to_string(reps.size()), avg, opt, header);
  } else {
    for (const auto &r : reps)
      out << row(label, buffer, std::to_string(r.value("units", std::int64_t(0))),
                 std::to_string(r.value("rep", 0)), r, opt, header);
  }
  if (!test["error"].is_null())
    out << "  " << label << ": FAILED: " << test["error"].value("message", "") << "\n";
}

} // namespace pio::harness
