// b_eff_io's hint directives.
#include "hints.hpp"

#include <sstream>

#include "pio/error.hpp"

namespace pio::beff_io {
namespace {

/// Splits "a:b:c" into its parts.
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep))
    out.push_back(cur);
  return out;
}

} // namespace

std::map<int, Hints> parse_type_hints(const std::vector<std::string> &words) {
  std::map<int, Hints> out;
  for (const auto &w : words) {
    const auto parts = split(w, ':');
    const auto eq = parts.size() == 2 ? parts[1].find('=') : std::string::npos;
    if (eq == std::string::npos || eq == 0)
      throw Error("TypeHints: '" + w + "' is not TYPE:key=value",
                  "e.g. TypeHints 0:romio_cb_write=enable *:romio_ds_read=disable");
    for (int t = 0; t < kPatternTypes; ++t)
      if (parts[0] == "*" || parts[0] == std::to_string(t))
        out[t][parts[1].substr(0, eq)] = parts[1].substr(eq + 1);
  }
  return out;
}

std::vector<ChunkHint> parse_chunk_hints(const std::vector<std::string> &words) {
  std::vector<ChunkHint> out;
  for (const auto &w : words) {
    const auto parts = split(w, ':');
    const auto eq = parts.size() == 3 ? parts[2].find('=') : std::string::npos;
    if (eq == std::string::npos || eq == 0)
      throw Error("ChunkHints: '" + w + "' is not TYPE:CHUNK:key=value",
                  "e.g. ChunkHints 0:1K:cb_buffer_size=1048576 (CHUNK: 1K, 1K+8, 32K, "
                  "32K+8, 1M, 1M+8, MPART, fill or *)");
    out.push_back({parts[0], parts[1], parts[2].substr(0, eq), parts[2].substr(eq + 1)});
  }
  return out;
}

std::map<std::string, Hints> chunk_hints_for(int type, const std::vector<Pattern> &patterns,
                                             const std::vector<ChunkHint> &hints) {
  std::map<std::string, Hints> out;
  for (const auto &h : hints)
    if (h.type == "*" || h.type == std::to_string(type))
      for (const auto &p : patterns)
        if (h.chunk == "*" || h.chunk == p.chunk)
          out[p.chunk][h.key] = h.value;
  return out;
}

std::string describe_chunk_hints(const std::map<std::string, Hints> &by_chunk) {
  std::string s;
  for (const auto &[chunk, hints] : by_chunk)
    for (const auto &[k, v] : hints)
      s += (s.empty() ? "" : " ") + chunk + ":" + k + "=" + v;
  return s;
}

} // namespace pio::beff_io
