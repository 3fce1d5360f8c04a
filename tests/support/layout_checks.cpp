#include "layout_checks.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

namespace pio::test {

std::vector<Traced> read_trace(const std::string &path, std::string *problem) {
  std::ifstream in(path);
  std::vector<Traced> out;
  std::string line;
  if (!std::getline(in, line) || !nlohmann::json::parse(line).contains("pio_layout_trace")) {
    *problem = path + ": no trace header, first line: " + line;
    return out;
  }
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.contains("test")) {
      out.push_back({j["test"], {}, {}});
    } else if (out.empty()) {
      *problem = "extents before a test line: " + line;
      return out;
    } else {
      Extents e;
      for (const auto &x : j["extents"])
        e.emplace_back(x[0].get<std::int64_t>(), x[1].get<std::int64_t>());
      const std::pair<int, std::int64_t> key{j["rank"].get<int>(), j["unit"].get<std::int64_t>()};
      out.back().extents[key] = e;
      out.back().owner[key] = j.value("owner", key.first);
    }
  }
  return out;
}

std::string text(const Extents &e) {
  std::ostringstream s;
  for (const auto &[o, l] : e)
    s << "[" << o << "," << l << "]";
  return s.str();
}

Image traced_image(const Traced &t, int file_rank) {
  auto owners = std::make_shared<std::map<std::int64_t, std::pair<std::int64_t, int>>>();
  std::int64_t end = 0;
  for (const auto &[key, extents] : t.extents) {
    if (file_rank >= 0 && key.first != file_rank)
      continue;
    for (const auto &[o, l] : extents) {
      (*owners)[o] = {o + l, t.owner.at(key)};
      end = std::max(end, o + l);
    }
  }
  return {end, [owners](std::int64_t o) {
            auto it = owners->upper_bound(o);
            if (it == owners->begin())
              return -1;
            --it;
            return o < it->second.first ? it->second.second : -1;
          }};
}

} // namespace pio::test
