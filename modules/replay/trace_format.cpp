#include "trace_format.hpp"

#include <sstream>

#include "pio/error.hpp"
#include "strace_syntax.hpp"

namespace pio::replay {

const char *to_string(TraceFormat f) { return f == TraceFormat::Dxt ? "dxt" : "strace"; }

TraceFormat guess_trace_format(std::istream &in, const std::string &path) {
  std::string line, why;
  int looked = 0;
  std::optional<TraceFormat> found;
  while (!found && looked < 64 && std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first))
      continue;
    ++looked;
    if (first == "X_POSIX" || first == "X_MPIIO" || line.find("# DXT") != std::string::npos ||
        line.find("# darshan log version") != std::string::npos)
      found = TraceFormat::Dxt;
    else if (first[0] != '#') {
      const auto l = parse_strace_line(line, &why);
      if (l && l->kind != StraceLine::Kind::Event)
        found = TraceFormat::Strace;
    }
  }
  in.clear();
  in.seekg(0);
  if (!found)
    throw Error("cannot tell the format of the trace " + path + " from its first " +
                    std::to_string(looked) +
                    " lines: neither darshan-dxt-parser's text ('# DXT' "
                    "lines, X_POSIX / X_MPIIO records) nor strace -ttt output",
                "set TraceFormat dxt or strace; docs/guides/replay.md shows both formats");
  return *found;
}

} // namespace pio::replay
