#include "settings.hpp"

#include <fstream>
#include <sstream>

#include "schedule.hpp"

namespace imb {

using pio::DirectiveSpec;
using pio::DirectiveType;

std::vector<DirectiveSpec> directives() {
  return {
      DirectiveSpec{"MsgLengths", DirectiveType::Sizes, "",
                    "message lengths X (default: 0 and 2^MinMsgLog .. 2^MaxMsgLog, §5.2.1)"}
          .between(0, 2147483647.0),
      DirectiveSpec{"MsgLengthsFile", DirectiveType::Text, "",
                    "a file of message lengths, one a line (IMB -msglen, §5.1.2.9)"},
      DirectiveSpec{"MinMsgLog", DirectiveType::Integer, "0",
                    "MINMSGLOG: smallest non-zero default length 2^MinMsgLog"}
          .between(0, 30),
      DirectiveSpec{"MaxMsgLog", DirectiveType::Integer, "22",
                    "MAXMSGLOG: largest default length 2^MaxMsgLog (4 MiB)"}
          .between(0, 30),
      DirectiveSpec{"NpMin", DirectiveType::Integer, "2",
                    "-npmin: run on NpMin, 2 NpMin, 4 NpMin, ... and all processes (§5.1.2.2)"}
          .at_least(1),
      DirectiveSpec{"Multi",
                    DirectiveType::Text,
                    "off",
                    "-multi: off, 0 (report the worst group) or 1 (every group) (§5.1.2.3)",
                    {"off", "0", "1"}},
      DirectiveSpec{"Map", DirectiveType::Text, "",
                    "-map PxQ: number ranks along the rows of a P x Q matrix (§5.1.2.10)"},
      DirectiveSpec{"MsgsPerSample", DirectiveType::Integer, "1000",
                    "MSGSPERSAMPLE: most operations per sample (-iter, §5.2.1)"}
          .at_least(1),
      DirectiveSpec{"OverallVolume", DirectiveType::Size, "40M",
                    "OVERALL_VOL: n_sample <= OVERALL_VOL / X (-iter, §5.2.1)"}
          .at_least(1),
      DirectiveSpec{"TimeLimit", DirectiveType::Real, "10",
                    "SECS_PER_SAMPLE: seconds per sample the count is cut to (-time, §5.1.2.6); "
                    "0 = no limit"}
          .at_least(0),
      DirectiveSpec{"WarmUp", DirectiveType::Flag, "on",
                    "untimed warm-up operations before each sample (§5.2.6)"},
      DirectiveSpec{"OffCache", DirectiveType::Real, "0",
                    "-off_cache: last-level cache size in MiB to defeat (-1 = 8 MiB; 0 = off)"}
          .at_least(-1),
      DirectiveSpec{"CacheLineSize", DirectiveType::Size, "64",
                    "-off_cache cache_line_size in bytes"}
          .between(1, 1048576),
      DirectiveSpec{"RootShift", DirectiveType::Flag, "on",
                    "rotate the root i % np (§3.3.4); IMB 2019+ defaults to off"},
      DirectiveSpec{"ReduceScatter",
                    DirectiveType::Text,
                    "split",
                    "split: L results shared out (§3.3.4.2); block: L per rank (IMB 2019+)",
                    {"split", "block"}},
      DirectiveSpec{"BufferAlignment",
                    DirectiveType::Text,
                    "malloc",
                    "where message buffers start: malloc (MPI_Alloc_mem, as IMB) or page",
                    {"malloc", "page"}},
      DirectiveSpec{"MbytesUnit",
                    DirectiveType::Text,
                    "MiB",
                    "Mbytes/sec column: MiB = 2^20 B/s (§3.3.2) or MB = 10^6 B/s (IMB 2019+)",
                    {"MiB", "MB"}},
  };
}

namespace {

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw pio::Error("cannot read MsgLengthsFile " + path, "give a readable file of lengths");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

Config read_config(const pio::Settings &s) {
  Config c;
  if (s.has("MsgLengths"))
    c.lengths = s.sizes("MsgLengths");
  const std::string file = s.has("MsgLengthsFile") ? s.text("MsgLengthsFile") : "";
  if (!file.empty()) {
    if (!c.lengths.empty())
      throw pio::Error("MsgLengths and MsgLengthsFile are both given", "keep one of them");
    c.lengths = parse_lengths(read_file(file), file);
  }
  if (c.lengths.empty()) {
    const auto lo = s.integer("MinMsgLog"), hi = s.integer("MaxMsgLog");
    if (lo > hi)
      throw pio::Error("MinMsgLog " + std::to_string(lo) + " > MaxMsgLog " + std::to_string(hi),
                       "give MinMsgLog <= MaxMsgLog");
    c.lengths = log_lengths(static_cast<int>(lo), static_cast<int>(hi));
  }
  // The methodology directives below are optional so that a family declaring only some of them
  // (IMB-IO has no warm-up, off_cache or roots) keeps the defaults of Config.
  if (s.has("NpMin"))
    c.np_min = static_cast<int>(s.integer("NpMin"));
  const std::string multi = s.has("Multi") ? s.text("Multi") : "off";
  c.multi = multi != "off";
  c.outflag = multi == "1" ? 1 : 0;
  const std::string map = s.has("Map") ? s.text("Map") : "";
  if (!map.empty()) {
    char x = 0;
    std::istringstream in(map);
    if (!(in >> c.px >> x >> c.py) || (x != 'x' && x != 'X') || c.px < 1 || c.py < 1)
      throw pio::Error("Map '" + map + "' is not PxQ", "write e.g. Map 4x2");
  }
  c.msgs_per_sample = s.integer("MsgsPerSample");
  c.overall_vol = s.size("OverallVolume");
  if (s.has("TimeLimit"))
    c.time_limit = s.real("TimeLimit");
  if (s.has("WarmUp"))
    c.warm_up = s.flag("WarmUp");
  const double cache_mib = s.has("OffCache") ? s.real("OffCache") : 0;
  c.cache_size = static_cast<std::int64_t>((cache_mib < 0 ? 8.0 : cache_mib) * 1048576.0);
  if (s.has("CacheLineSize"))
    c.cache_line = s.size("CacheLineSize");
  if (s.has("RootShift"))
    c.root_shift = s.flag("RootShift");
  if (s.has("ReduceScatter"))
    c.split_scatter = s.text("ReduceScatter") == "split";
  if (s.has("BufferAlignment"))
    c.page_buffers = s.text("BufferAlignment") == "page";
  if (s.has("MbytesUnit"))
    c.mbytes_unit = s.text("MbytesUnit");
  return c;
}

} // namespace imb
