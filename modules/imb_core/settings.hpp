#pragma once
/// The IMB-MPI1 family's directives (IMB 3.2 User Guide §5.1.2 command line, §5.2.1 settings.h)
/// and their parsed values.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/directive.hpp"

namespace imb {

/// Whose methodology a block follows when RootShift, Sync, ReduceScatter and MbytesUnit are not
/// given: the IMB 3.2 User Guide's (§3.3.4, §5, §6) or the defaults of IMB-MPI1 2019 and later.
enum class Methodology {
  Guide32, ///< "imb3.2": root i % np, no barrier between operations, Reduce_scatter splits L, MiB
  Imb2019, ///< "imb2019": root 0, -sync 1, Reduce_scatter L results per rank, 10^6 B/s
};
/// The Methodology directive's word for m.
const char *methodology_name(Methodology m);

/// The directives every IMB-MPI1 kernel accepts.
std::vector<pio::DirectiveSpec> directives();

/// A block's methodology settings.
struct Config {
  std::vector<std::int64_t> lengths;   ///< message lengths X (before a kernel's rounding)
  int np_min = 2;                      ///< -npmin
  bool multi = false;                  ///< -multi given
  int outflag = 0;                     ///< -multi <outflag>: 1 = every group in the console
  int px = 0, py = 0;                  ///< -map PxQ (0 = none)
  std::int64_t msgs_per_sample = 1000; ///< MSGSPERSAMPLE (-iter)
  std::int64_t overall_vol = 40 << 20; ///< OVERALL_VOL (-iter)
  double time_limit = 10;              ///< SECS_PER_SAMPLE (-time), 0 = no limit
  bool warm_up = true;                 ///< §5.2.6
  std::int64_t cache_size = 0;         ///< -off_cache size in bytes (0 = off)
  std::int64_t cache_line = 64;        ///< -off_cache line size
  Methodology methodology = Methodology::Guide32; ///< where the next four defaults come from
  bool root_shift = true;                         ///< rotate roots i % np (§3.3.4)
  bool sync = false;               ///< -sync 1: collectives timed one operation at a time
  bool split_scatter = true;       ///< Reduce_scatter splits L (§3.3.4.2)
  bool page_buffers = false;       ///< page-aligned buffers instead of MPI_Alloc_mem's
  std::string mbytes_unit = "MiB"; ///< Mbytes/sec as 2^20 (guide) or 10^6 (IMB 2019+) B/s
};

/// Reads a block's settings (and a MsgLengthsFile) into a Config; throws pio::Error.
Config read_config(const pio::Settings &s);

/// The methodology that ran, for the IMB table's header: its name and the four settings it
/// decides, as resolved (e.g. "imb2019 (root 0, -sync 1, Reduce_scatter L per rank, 10^6 B/s)").
std::string methodology_line(const Config &c);

} // namespace imb
