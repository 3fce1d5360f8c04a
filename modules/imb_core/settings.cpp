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
      DirectiveSpec{"Methodology",
                    DirectiveType::Text,
                    "imb3.2",
                    "imb3.2: the IMB 3.2 guide's (root i % np, no barrier between operations, "
                    "Reduce_scatter splits L, 2^20 B/s); imb2019: IMB-MPI1 2019+'s defaults (root "
                    "0, -sync 1, Reduce_scatter L per rank, 10^6 B/s); the four directives below "
                    "override it one by one",
                    {"imb3.2", "imb2019"}},
      DirectiveSpec{"RootShift", DirectiveType::Flag, "",
                    "rotate the root i % np (§3.3.4); default from Methodology (imb3.2 on, "
                    "imb2019 off: root 0)"},
      DirectiveSpec{"Sync", DirectiveType::Flag, "",
                    "IMB 2019+'s -sync 1: collectives run one operation per work unit, the "
                    "harness's barriers between them outside the time (TimingScope unit); default "
                    "from Methodology (imb3.2 off, imb2019 on)"},
      DirectiveSpec{"ReduceScatter",
                    DirectiveType::Text,
                    "",
                    "split: L results shared out (§3.3.4.2); block: L per rank of an np L vector "
                    "(IMB-MPI1 2019+); default from Methodology",
                    {"split", "block"}},
      DirectiveSpec{"BufferAlignment",
                    DirectiveType::Text,
                    "malloc",
                    "where message buffers start: malloc (MPI_Alloc_mem, as IMB) or page",
                    {"malloc", "page"}},
      DirectiveSpec{"MbytesUnit",
                    DirectiveType::Text,
                    "",
                    "Mbytes/sec column: MiB = 2^20 B/s (§3.3.2) or MB = 10^6 B/s (IMB 2019+); "
                    "default from Methodology",
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
  // A family without the Methodology directive (IMB-EXT, IMB-IO) keeps the guide's.
  if (s.has("Methodology") && s.text("Methodology") == methodology_name(Methodology::Imb2019))
    c.methodology = Methodology::Imb2019;
  const bool guide = c.methodology == Methodology::Guide32;
  c.root_shift = s.has("RootShift") ? s.flag("RootShift") : guide;
  c.sync = s.has("Sync") ? s.flag("Sync") : !guide;
  c.split_scatter = s.has("ReduceScatter") ? s.text("ReduceScatter") == "split" : guide;
  c.mbytes_unit = s.has("MbytesUnit") ? s.text("MbytesUnit") : guide ? "MiB" : "MB";
  if (s.has("BufferAlignment"))
    c.page_buffers = s.text("BufferAlignment") == "page";
  return c;
}

const char *methodology_name(Methodology m) {
  return m == Methodology::Imb2019 ? "imb2019" : "imb3.2";
}

std::string methodology_line(const Config &c) {
  return std::string(methodology_name(c.methodology)) + " (root " +
         (c.root_shift ? "i % np" : "0") + ", " + (c.sync ? "-sync 1" : "-sync 0") +
         ", Reduce_scatter " + (c.split_scatter ? "splits L" : "L per rank") + ", " +
         (c.mbytes_unit == "MB" ? "10^6" : "2^20") + " B/s)";
}

} // namespace imb
