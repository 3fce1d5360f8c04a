#pragma once
/// Value words of the config shared by its readers: hint values (sizes as bytes), the values of a
/// Sweep line (size ranges expanded), and which names a Sweep line may vary.

#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

/// A hint value as MPI-IO wants it: a size with a K, M, G or T suffix becomes its byte count
/// ("16M" -> "16777216"); any other value is kept as written.
std::string hint_value(const std::string &value);

/// The values of a Sweep line after its name, with size ranges expanded: "4K..16M" is 4K, 8K,
/// ... 16M (doubling, as the sizes of the thesis's figures). With `commas`, a word also splits
/// at commas ("mpiio,posix"); a hint's values do not (a hint value may hold commas, as
/// cb_config_list's). Throws pio::Error on an empty list or a bad range.
std::vector<std::string> sweep_values(const std::vector<std::string> &words, bool commas = true);

/// A directive's checked words as the results and labels show its value: a flag "on" or "off", a
/// size as format_size ("1M"), a list's words separated by spaces, anything else as written.
std::string shown_value(const DirectiveSpec &spec, const std::vector<std::string> &words);

/// True for "Hint:<key>" (any case), setting key.
bool hint_target(const std::string &name, std::string &key);

/// The line of `block` that sets harness directive `name` (the last one: global, block, then
/// swept), or nullptr when it has its default.
const DirectiveLine *setting_line(const ModuleBlock &block, const std::string &name);

} // namespace pio::harness
