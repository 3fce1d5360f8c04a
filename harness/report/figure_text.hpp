#pragma once
/// A module's figure of merit (pio::Figure) as text for people: its values, tables and notes.

#include <string>

#include "pio/results.hpp"

namespace pio::harness {

/// A number for people and the CSV: `digits` significant digits in plain notation, never an
/// exponent (17443.2 -> "17443.2", 98734480 -> "98734480", 0.000123456 -> "0.000123456"); NaN
/// is "not measured" (FigureValue's rule).
std::string plain_number(double v, int digits = 6);

/// One figure cell as text: integers exactly, doubles as plain_number.
std::string cell_text(const Cell &cell);

/// A table as lines: a title line, then aligned columns (numbers right, text left).
std::string table_text(const FigureTable &table);

/// The figure as lines: "name:", "  value = 1.5 unit" per value, each table with a title line and
/// aligned columns (numbers right, text left), then "  note: ..." per note. Tables marked detail
/// are left out (with a line saying where they are) unless `detail` is true.
std::string figure_text(const Figure &figure, bool detail = false);

} // namespace pio::harness
