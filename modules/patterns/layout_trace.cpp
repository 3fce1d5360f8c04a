// LayoutTrace: the engine's own geometry written out, so a pattern's picture (pio-plot layout)
// is the layout that ran, never a re-derivation (thesis §3.4.1, Figs. 3.5-3.12 sketch them).
#include "layout_trace.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace pio::patterns {
namespace {

// Names this process's run in the trace header. An environment variable, not a static: every
// module shared object links its own copy of the engine, and all of them must agree.
constexpr const char *kRunVariable = "PIO_LAYOUT_TRACE_RUN";

std::string run_token() {
  if (const char *t = std::getenv(kRunVariable))
    return t;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const std::string token =
      std::to_string(getpid()) + "-" +
      std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  setenv(kRunVariable, token.c_str(), 1);
  return token;
}

std::string header_line(const std::string &token) {
  return nlohmann::json{{"pio_layout_trace", 1}, {"run", token}}.dump();
}

} // namespace

void start_layout_trace(const std::string &path) {
  const std::string token = run_token();
  {
    std::ifstream in(path);
    std::string first;
    if (in && std::getline(in, first) && first == header_line(token))
      return; // an earlier block of this run started it
  }
  std::ofstream out(path, std::ios::trunc);
  out << header_line(token) << "\n";
  if (!out)
    throw DirectiveError("LayoutTrace", "cannot write the layout trace " + path,
                         "name a file in a directory that exists and is writable");
}

void append_layout_trace(const std::string &path, const TestContext &test, const Geometry &geometry,
                         TemporalMode mode, int shift) {
  const TestSpec &spec = test.spec();
  const ModuleContext &m = *test.module;
  const std::int64_t units = spec.phases.at(0).work_units;
  std::ostringstream s;
  const nlohmann::json header = {
      {"module", m.module_name},
      {"label", spec.label},
      {"index", test.test_index},
      {"rep", test.rep},
      {"mode", temporal_mode_name(mode)},
      {"ranks", test.size},
      {"units", units},
      {"file", to_string(spec.file)},
      {"collective", m.collective},
      {"interface", m.interface},
      // FileView applies on a backend with file views only (docs/reference/interfaces.md)
      {"file_view", m.use_file_view && m.capabilities.has(io::Capability::FileViews)},
      {"header_offset", spec.header_offset},
      {"params", spec.params},
      {"hints", m.hints}};
  // Names and values may hold any byte a config holds: never fail on invalid UTF-8.
  s << nlohmann::json{{"test", header}}.dump(-1, ' ', false,
                                             nlohmann::json::error_handler_t::replace)
    << "\n";
  for (std::int64_t u = 0; u < units; ++u)
    for (int r = 0; r < test.size; ++r) {
      nlohmann::json line = {{"rank", r}, {"unit", u}, {"extents", nlohmann::json::array()}};
      for (const auto &e : geometry.extents(r, u))
        line["extents"].push_back({e.offset, e.length});
      // Whose data the bytes hold, where it is not the rank itself (sequential read, ReorderTasks).
      const int owner = (geometry.data_rank(r, u) + shift) % test.size;
      if (owner != r)
        line["owner"] = owner;
      s << line.dump() << "\n";
    }
  std::ofstream out(path, std::ios::app);
  out << s.str();
  if (!out)
    throw Error("cannot append to the layout trace " + path,
                "check the file system of LayoutTrace has space and the file is writable");
}

} // namespace pio::patterns
