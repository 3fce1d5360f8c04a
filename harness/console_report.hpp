#pragma once
/// The console table for people (DESIGN §6); the JSON results are for tools.

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace pio::harness {

/// Which optional columns to show (Table 3.1 directives).
struct TableOptions {
  bool show_averages = false;
  bool open_time = false;
  bool close_time = false;
  bool header_offset = false;
};

/// Prints the module heading and the column header.
void print_module_header(std::ostream &out, const std::string &heading, const TableOptions &opt);
/// Prints one test's rows (one per repetition, or one average row with ShowAverages).
void print_test_rows(std::ostream &out, const nlohmann::json &test, const TableOptions &opt);

} // namespace pio::harness
