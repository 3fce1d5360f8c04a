#include "report/figure_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pio::harness {

namespace {
bool is_text(const Cell &cell) { return std::holds_alternative<std::string>(cell); }

void print_table(std::ostream &out, const FigureTable &table) {
  size_t ncol = table.columns.size();
  for (const auto &row : table.rows)
    ncol = std::max(ncol, row.size());
  std::vector<size_t> width(ncol, 0);
  // A column is left-aligned when its first row holds text (a name), right-aligned otherwise.
  std::vector<bool> left(ncol, false);
  for (size_t c = 0; c < table.columns.size(); ++c)
    width[c] = table.columns[c].size();
  std::vector<std::vector<std::string>> text;
  for (const auto &row : table.rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < row.size(); ++c) {
      line.push_back(cell_text(row[c]));
      width[c] = std::max(width[c], line.back().size());
      if (&row == &table.rows.front())
        left[c] = is_text(row[c]);
    }
    text.push_back(std::move(line));
  }
  auto print_line = [&](const std::vector<std::string> &cells) {
    std::string line = "  ";
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      line += "  " + (left[c] ? cells[c] + pad : pad + cells[c]);
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << "\n";
  };
  out << "  " << table.name << ":\n";
  if (!table.columns.empty())
    print_line(table.columns);
  for (const auto &line : text)
    print_line(line);
}
} // namespace

std::string plain_number(double v, int digits) {
  if (std::isnan(v))
    return "not measured";
  if (v == 0 || !std::isfinite(v))
    return v == 0 ? "0" : (v > 0 ? "inf" : "-inf");
  // As many decimals as the magnitude leaves of `digits`, trailing zeros dropped.
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, digits - 1 - magnitude);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0')
      s.pop_back();
    if (s.back() == '.')
      s.pop_back();
  }
  return s;
}

std::string table_text(const FigureTable &table) {
  std::ostringstream out;
  print_table(out, table);
  return out.str();
}

std::string cell_text(const Cell &cell) {
  if (const auto *i = std::get_if<std::int64_t>(&cell))
    return std::to_string(*i);
  if (const auto *d = std::get_if<double>(&cell))
    return plain_number(*d);
  return std::get<std::string>(cell);
}

std::string figure_text(const Figure &figure, bool detail) {
  std::ostringstream out;
  out << figure.name << ":\n";
  for (const auto &v : figure.values)
    out << "  " << v.name << " = " << plain_number(v.value)
        << (v.unit.empty() || std::isnan(v.value) ? "" : " ") << (std::isnan(v.value) ? "" : v.unit)
        << "\n";
  for (const auto &t : figure.tables) {
    if (t.detail && !detail)
      out << "  " << t.name << ": " << t.rows.size()
          << (t.rows.size() == 1
                  ? " row in the results file (ShowAllTests on prints it here)\n"
                  : " rows in the results file (ShowAllTests on prints them here)\n");
    else
      print_table(out, t);
  }
  for (const auto &n : figure.notes)
    out << "  note: " << n << "\n";
  return out.str();
}

} // namespace pio::harness
