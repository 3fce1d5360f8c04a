#pragma once
/// A module's figure of merit (pio::Figure) as text for people: its values, tables and notes.

#include <string>

#include "pio/results.hpp"

namespace pio::harness {

/// One figure cell as text: integers exactly, doubles with six significant digits.
std::string cell_text(const Cell &cell);

/// The figure as lines: "name:", "  value = 1.5 unit" per value, each table with a title line and
/// aligned columns (numbers right, text left), then "  note: ..." per note.
std::string figure_text(const Figure &figure);

} // namespace pio::harness
