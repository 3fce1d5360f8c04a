// Value words of the config (values.hpp): hint values, sweep values and size ranges, sweep targets.
#include "config/values.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "config/text.hpp"
#include "pio/directive.hpp"
#include "pio/error.hpp"

namespace pio::harness {

namespace {

/// 4K..16M -> 4K 8K ... 16M; throws Error.
std::vector<std::string> size_range(const std::string &word, size_t dots) {
  const std::string hint = "write a range of sizes as <from>..<to>, e.g. 4K..16M (doubling)";
  std::int64_t from = 0, to = 0;
  try {
    from = parse_size(word.substr(0, dots));
    to = parse_size(word.substr(dots + 2));
  } catch (const Error &e) {
    throw Error("range '" + word + "': " + e.what(), hint);
  }
  if (from <= 0 || to < from)
    throw Error("range '" + word + "' is empty or starts at 0", hint);
  std::vector<std::string> out;
  for (std::int64_t v = from; v <= to; v *= 2) {
    out.push_back(format_size(v));
    if (v > to / 2)
      break;
  }
  return out;
}

} // namespace

std::string shown_value(const DirectiveSpec &spec, const std::vector<std::string> &words) {
  std::string out;
  for (const auto &w : words) {
    std::string v = w;
    if (spec.type == DirectiveType::Flag)
      v = parse_flag(w) ? "on" : "off";
    else if (spec.type == DirectiveType::Size || spec.type == DirectiveType::Sizes)
      v = format_size(parse_size(w));
    out += (out.empty() ? "" : " ") + v;
  }
  return out;
}

/// True for "Hint:<key>" (any case), setting key.
bool hint_target(const std::string &name, std::string &key) {
  if (lower(name.substr(0, 5)) != "hint:")
    return false;
  key = name.substr(5);
  return true;
}

std::string hint_value(const std::string &value) {
  if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])))
    return value;
  try {
    return std::to_string(parse_size(value));
  } catch (const Error &) {
    return value; // not a size: a hint value the MPI library judges
  }
}

/// The words with each split at its commas (empty pieces dropped).
std::vector<std::string> split_commas(const std::vector<std::string> &words) {
  std::vector<std::string> out;
  for (const auto &w : words) {
    size_t from = 0;
    while (from <= w.size()) {
      const size_t comma = std::min(w.find(',', from), w.size());
      if (comma > from)
        out.push_back(w.substr(from, comma - from));
      from = comma + 1;
    }
  }
  return out;
}

std::vector<std::string> sweep_values(const std::vector<std::string> &written, bool commas) {
  const std::vector<std::string> words = commas ? split_commas(written) : written;
  std::vector<std::string> out;
  for (const auto &w : words) {
    const auto dots = w.find("..");
    if (dots == std::string::npos) {
      out.push_back(w);
      continue;
    }
    const auto range = size_range(w, dots);
    out.insert(out.end(), range.begin(), range.end());
  }
  if (out.empty())
    throw Error("Sweep without values",
                "write the values after the name, e.g. Sweep BufferSizes 64K 1M");
  return out;
}

const DirectiveLine *setting_line(const ModuleBlock &block, const std::string &name) {
  const DirectiveLine *found = nullptr;
  for (const auto &l : block.harness_lines)
    if (lower(l.name) == lower(name))
      found = &l;
  return found;
}

} // namespace pio::harness
